/**
 * A loudness meter written from ITU-R BS.1770-4 for the tests, independent of the ffmpeg that
 * masters creatives: it shares no code with it, so a mistake in one is not hidden by the other.
 * Plain and slow on purpose (no optimisation to get wrong). Checked against the standard's own
 * reference points in tests/synth/bs1770-reference.test.ts.
 *
 * - K-weighting: the two biquads the standard tabulates for 48 kHz (Annex 1, Tables 1 and 2),
 *   carried to other sample rates through their analog prototype (bilinear transform undone at
 *   48 kHz, redone at the target rate).
 * - Integrated loudness: 400 ms blocks overlapping by 75 %, absolute gate −70 LKFS, relative gate
 *   −10 LU (Annex 1, §§ 2.4–2.6); L = −0.691 + 10·log10(Σ Gᵢ·zᵢ), Gᵢ = 1 for L, R, C (mono: one channel).
 * - True peak (Annex 2): the signal oversampled 4× by a windowed-sinc interpolator, then the
 *   largest magnitude, in dBTP.
 */

type Biquad = { b: [number, number, number]; a: [number, number, number] };

/** BS.1770-4 Annex 1: the pre-filter (high shelf, head effects) and the RLB high-pass, at 48 kHz. */
const STAGE_1_48K: Biquad = { b: [1.53512485958697, -2.69169618940638, 1.19839281085285], a: [1, -1.69065929318241, 0.73248077421585] };
const STAGE_2_48K: Biquad = { b: [1, -2, 1], a: [1, -1.99004745483398, 0.99007225036621] };

/**
 * Re-discretise a 48 kHz biquad for `rate`. Undoing the bilinear transform at 48 kHz and redoing
 * it at `rate` is the substitution z₄₈ = ((1+r)z + (1−r)) / ((1−r)z + (1+r)), r = rate / 48000.
 */
function atRate({ b, a }: Biquad, rate: number): Biquad {
  const r = rate / 48_000;
  const p = 1 + r; // numerator of z₄₈:   p·z + q
  const q = 1 - r; // denominator of z₄₈: q·z + p
  // c0 + c1·z₄₈⁻¹ + c2·z₄₈⁻² times (p·z + q)² / z², in powers of z⁻¹.
  const map = ([c0, c1, c2]: [number, number, number]): [number, number, number] => [
    c0 * p * p + c1 * p * q + c2 * q * q,
    2 * c0 * p * q + c1 * (p * p + q * q) + 2 * c2 * p * q,
    c0 * q * q + c1 * p * q + c2 * p * p,
  ];
  const nb = map(b);
  const na = map(a);
  const norm = na[0];
  return { b: nb.map((x) => x / norm) as Biquad['b'], a: na.map((x) => x / norm) as Biquad['a'] };
}

function filter(x: Float64Array, { b, a }: Biquad): Float64Array {
  const y = new Float64Array(x.length);
  let x1 = 0;
  let x2 = 0;
  let y1 = 0;
  let y2 = 0;
  for (let n = 0; n < x.length; n++) {
    const xn = x[n]!;
    const yn = b[0] * xn + b[1] * x1 + b[2] * x2 - a[1] * y1 - a[2] * y2;
    x2 = x1;
    x1 = xn;
    y2 = y1;
    y1 = yn;
    y[n] = yn;
  }
  return y;
}

const loudness = (power: number) => -0.691 + 10 * Math.log10(power);

/** Integrated loudness (LUFS) of mono `samples` (−1…1) at `rate`; −Infinity when no block passes the gates. */
export function integratedLoudness(samples: ArrayLike<number>, rate: number): number {
  const x = Float64Array.from(samples);
  const weighted = filter(filter(x, atRate(STAGE_1_48K, rate)), atRate(STAGE_2_48K, rate));
  const block = Math.round(0.4 * rate);
  const step = Math.round(0.1 * rate);
  const powers: number[] = [];
  for (let start = 0; start + block <= weighted.length; start += step) {
    let sum = 0;
    for (let n = start; n < start + block; n++) sum += weighted[n]! * weighted[n]!;
    powers.push(sum / block);
  }
  const mean = (list: number[]) => list.reduce((s, p) => s + p, 0) / list.length;
  const absolute = powers.filter((p) => loudness(p) > -70);
  if (absolute.length === 0) return -Infinity;
  const relativeGate = loudness(mean(absolute)) - 10;
  const gated = absolute.filter((p) => loudness(p) > relativeGate);
  return loudness(mean(gated));
}

/** Taps per phase of the 4× interpolator: ±16 input samples around each output point. */
const HALF_TAPS = 16;
const OVERSAMPLE = 4;

/** The interpolating filter for phase k/4: a Blackman-windowed sinc, normalised to unity gain. */
const PHASES: Float64Array[] = Array.from({ length: OVERSAMPLE }, (_, k) => {
  const taps = new Float64Array(2 * HALF_TAPS);
  const offset = k / OVERSAMPLE;
  for (let i = 0; i < taps.length; i++) {
    const t = i - HALF_TAPS + 1 - offset; // distance from input sample to the interpolated point
    const sinc = t === 0 ? 1 : Math.sin(Math.PI * t) / (Math.PI * t);
    const w = (t + HALF_TAPS) / (2 * HALF_TAPS); // 0…1 across the window
    const blackman = 0.42 - 0.5 * Math.cos(2 * Math.PI * w) + 0.08 * Math.cos(4 * Math.PI * w);
    taps[i] = sinc * blackman;
  }
  const gain = taps.reduce((s, v) => s + v, 0);
  return taps.map((v) => v / gain);
});

/** True peak (dBTP) of mono `samples`: the largest magnitude of the 4× oversampled signal. */
export function truePeak(samples: ArrayLike<number>): number {
  let peak = 0;
  const n = samples.length;
  for (let i = 0; i < n; i++) {
    peak = Math.max(peak, Math.abs(samples[i]!));
    for (let k = 1; k < OVERSAMPLE; k++) {
      const taps = PHASES[k]!;
      let acc = 0;
      for (let j = 0; j < taps.length; j++) {
        const idx = i + j - HALF_TAPS + 1;
        if (idx >= 0 && idx < n) acc += taps[j]! * samples[idx]!;
      }
      peak = Math.max(peak, Math.abs(acc));
    }
  }
  return 20 * Math.log10(peak);
}
