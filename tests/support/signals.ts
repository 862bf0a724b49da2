/** Test signals, without vitest: the fake voice vendor (also run by e2e/serve.ts) makes its audio with them. */

/** Mono float samples as a 16-bit PCM WAV, the same samples in each of `channels`. */
export function pcmWav(samples: ArrayLike<number>, sampleRate: number, channels = 1): Buffer {
  const frame = 2 * channels;
  const data = Buffer.alloc(samples.length * frame);
  for (let i = 0; i < samples.length; i++) {
    const v = Math.max(-32768, Math.min(32767, Math.round(samples[i]! * 32767)));
    for (let c = 0; c < channels; c++) data.writeInt16LE(v, i * frame + c * 2);
  }
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'ascii');
  header.writeUInt32LE(36 + data.length, 4);
  header.write('WAVEfmt ', 8, 'ascii');
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20); // PCM
  header.writeUInt16LE(channels, 22);
  header.writeUInt32LE(sampleRate, 24);
  header.writeUInt32LE(sampleRate * frame, 28);
  header.writeUInt16LE(frame, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36, 'ascii');
  header.writeUInt32LE(data.length, 40);
  return Buffer.concat([header, data]);
}

/**
 * Something with the loudness statistics of speech, deterministic: a buzzy 110–140 Hz voice
 * (harmonics falling off like a glottal source, two formant bumps) in syllables of ~200 ms,
 * words separated by pauses, peaking at `peak`.
 *
 * Made for speed as well as shape: the fake voice vendor speaks a 2,000-character script as 130 s
 * of it. Each harmonic's sine comes from the two before it (sin hφ = 2 cos φ · sin (h−1)φ − sin (h−2)φ),
 * and the formant curve from a table at 1/16 Hz, linearly interpolated (error under 1e-7): 30 sines
 * and 60 exponentials per sample took 9.3 s for those 130 s on one machine; this took 1.1 s.
 */
export function speechLike(ms: number, sampleRate: number, peak: number): Float32Array {
  const n = Math.round((sampleRate * ms) / 1000);
  const out = new Float32Array(n);
  let phase = 0;
  for (let i = 0; i < n; i++) {
    const t = i / sampleRate;
    const f0 = 125 + 15 * Math.sin(2 * Math.PI * 0.7 * t);
    phase += (2 * Math.PI * f0) / sampleRate;
    const twoCos = 2 * Math.cos(phase);
    let before = 0; // sin((h − 2)·phase)
    let sine = Math.sin(phase); // sin(h·phase), from h = 1
    let v = 0;
    for (let h = 1; h <= HARMONICS; h++) {
      v += (formantGain(h * f0) / h) * sine;
      const next = twoCos * sine - before;
      before = sine;
      sine = next;
    }
    const syllable = Math.max(0, Math.sin(Math.PI * ((t * 5) % 1))) ** 0.7;
    const word = (t * 1.2) % 1 < 0.8 ? 1 : 0; // a pause after every few syllables
    out[i] = v * syllable * word;
  }
  const max = out.reduce((m, v) => Math.max(m, Math.abs(v)), 0);
  for (let i = 0; i < n; i++) out[i] = (out[i]! / max) * peak;
  return out;
}

const HARMONICS = 30;
/** The formant curve, 1 + 3·e^−((f−700)/250)² + 2·e^−((f−1800)/400)², every 1/16 Hz up to the highest harmonic of 140 Hz. */
const FORMANT_STEP = 1 / 16;
const formantTable = Float64Array.from({ length: Math.ceil((HARMONICS * 141) / FORMANT_STEP) + 2 }, (_, k) => {
  const f = k * FORMANT_STEP;
  return 1 + 3 * Math.exp(-(((f - 700) / 250) ** 2)) + 2 * Math.exp(-(((f - 1800) / 400) ** 2));
});

function formantGain(f: number): number {
  const x = f / FORMANT_STEP;
  const k = Math.floor(x);
  return formantTable[k]! + (x - k) * (formantTable[k + 1]! - formantTable[k]!);
}
