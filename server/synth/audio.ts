/**
 * Minimal, dependency-free readers for the two audio formats the providers return:
 * RIFF/WAVE (PCM) and MPEG audio (MP3). They only read headers; they never decode audio.
 */

export interface WavInfo {
  audioFormat: number; // 1 = PCM
  channels: number;
  sampleRate: number;
  byteRate: number;
  blockAlign: number;
  bitsPerSample: number;
  /** Offset of the first byte of the `data` chunk's payload. */
  dataOffset: number;
  /** Length of the `data` payload in bytes (as declared, clipped to the buffer). */
  dataLength: number;
  durationMs: number;
}

export function isWav(buf: Buffer): boolean {
  return buf.length >= 12 && buf.toString('ascii', 0, 4) === 'RIFF' && buf.toString('ascii', 8, 12) === 'WAVE';
}

/** Parses a RIFF/WAVE header; throws an `Error` when the buffer is not a readable WAV. */
export function parseWav(buf: Buffer): WavInfo {
  if (!isWav(buf)) throw new Error('not a RIFF/WAVE file');
  let offset = 12;
  let fmt: Omit<WavInfo, 'dataOffset' | 'dataLength' | 'durationMs'> | undefined;
  while (offset + 8 <= buf.length) {
    const id = buf.toString('ascii', offset, offset + 4);
    const size = buf.readUInt32LE(offset + 4);
    const body = offset + 8;
    if (id === 'fmt ') {
      if (size < 16 || body + 16 > buf.length) throw new Error('truncated fmt chunk');
      fmt = {
        audioFormat: buf.readUInt16LE(body),
        channels: buf.readUInt16LE(body + 2),
        sampleRate: buf.readUInt32LE(body + 4),
        byteRate: buf.readUInt32LE(body + 8),
        blockAlign: buf.readUInt16LE(body + 12),
        bitsPerSample: buf.readUInt16LE(body + 14),
      };
    } else if (id === 'data') {
      if (!fmt) throw new Error('data chunk before fmt chunk');
      if (fmt.byteRate === 0) throw new Error('byte rate is 0');
      // Streams sometimes declare 0 or 0xFFFFFFFF as the size; trust what is actually there.
      const declared = size === 0 || size === 0xffffffff ? buf.length - body : size;
      const dataLength = Math.min(declared, buf.length - body);
      return { ...fmt, dataOffset: body, dataLength, durationMs: Math.round((dataLength / fmt.byteRate) * 1000) };
    }
    offset = body + size + (size % 2); // chunks are word-aligned
  }
  throw new Error('no data chunk');
}

export interface Mp3Info {
  version: '1' | '2' | '2.5';
  layer: 1 | 2 | 3;
  bitrateKbps: number;
  sampleRate: number;
  /** Offset of the first frame header (after any ID3v2 tag). */
  firstFrameOffset: number;
  /** Frame count from a Xing/Info header, when the encoder wrote one. */
  xingFrames?: number;
  durationMs: number;
}

const BITRATES_KBPS: Record<string, readonly number[]> = {
  V1L1: [0, 32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448],
  V1L2: [0, 32, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320, 384],
  V1L3: [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320],
  V2L1: [0, 32, 48, 56, 64, 80, 96, 112, 128, 144, 160, 176, 192, 224, 256],
  V2L2: [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160],
  V2L3: [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160],
};
const SAMPLE_RATES: Record<Mp3Info['version'], readonly number[]> = {
  '1': [44100, 48000, 32000],
  '2': [22050, 24000, 16000],
  '2.5': [11025, 12000, 8000],
};

function id3v2Length(buf: Buffer): number {
  if (buf.length < 10 || buf.toString('latin1', 0, 3) !== 'ID3') return 0;
  // Syncsafe integer: 4 x 7 bits.
  const size = ((buf[6]! & 0x7f) << 21) | ((buf[7]! & 0x7f) << 14) | ((buf[8]! & 0x7f) << 7) | (buf[9]! & 0x7f);
  const footer = (buf[5]! & 0x10) !== 0 ? 10 : 0;
  return 10 + size + footer;
}

/**
 * Reads the first MPEG audio frame header and estimates the duration.
 *
 * Estimate: when the first frame carries a Xing/Info header with a frame count (VBR files and
 * most encoders), duration = frames x samples-per-frame / sample rate, which is exact.
 * Otherwise the stream is assumed to be constant-bit-rate (what TTS vendors send, e.g. 128 kbps):
 * duration = audio bytes x 8 / bitrate of the first frame. For VBR without a Xing header this is
 * only an approximation.
 *
 * Throws an `Error` when no valid frame header is found.
 */
export function parseMp3(buf: Buffer): Mp3Info {
  const start = id3v2Length(buf);
  // Look for the frame sync (11 set bits) near the start; tolerate a little padding.
  const limit = Math.min(buf.length - 4, start + 4096);
  for (let i = start; i <= limit; i++) {
    if (buf[i] !== 0xff || (buf[i + 1]! & 0xe0) !== 0xe0) continue;
    const b1 = buf[i + 1]!;
    const b2 = buf[i + 2]!;
    const b3 = buf[i + 3]!;
    const versionBits = (b1 >> 3) & 0x03;
    const layerBits = (b1 >> 1) & 0x03;
    const bitrateIndex = (b2 >> 4) & 0x0f;
    const sampleRateIndex = (b2 >> 2) & 0x03;
    if (versionBits === 1 || layerBits === 0 || bitrateIndex === 0 || bitrateIndex === 15 || sampleRateIndex === 3) continue;
    const version: Mp3Info['version'] = versionBits === 3 ? '1' : versionBits === 2 ? '2' : '2.5';
    const layer = (4 - layerBits) as 1 | 2 | 3;
    const bitrateKbps = BITRATES_KBPS[`${version === '1' ? 'V1' : 'V2'}L${layer}`]![bitrateIndex]!;
    const sampleRate = SAMPLE_RATES[version][sampleRateIndex]!;
    const samplesPerFrame = layer === 1 ? 384 : layer === 2 || version === '1' ? 1152 : 576;

    let xingFrames: number | undefined;
    if (layer === 3) {
      const mono = b3 >> 6 === 3;
      const sideInfo = version === '1' ? (mono ? 17 : 32) : mono ? 9 : 17;
      const x = i + 4 + sideInfo;
      if (x + 12 <= buf.length) {
        const tag = buf.toString('latin1', x, x + 4);
        if ((tag === 'Xing' || tag === 'Info') && (buf.readUInt32BE(x + 4) & 0x1) !== 0) {
          xingFrames = buf.readUInt32BE(x + 8);
        }
      }
    }

    let durationMs: number;
    if (xingFrames !== undefined && xingFrames > 0) {
      durationMs = Math.round((xingFrames * samplesPerFrame * 1000) / sampleRate);
    } else {
      let end = buf.length;
      if (end - 128 >= i && buf.toString('latin1', end - 128, end - 125) === 'TAG') end -= 128; // ID3v1
      // kbps = bits per millisecond.
      durationMs = Math.round(((end - i) * 8) / bitrateKbps);
    }
    return { version, layer, bitrateKbps, sampleRate, firstFrameOffset: i, xingFrames, durationMs };
  }
  throw new Error('no MPEG audio frame header found');
}
