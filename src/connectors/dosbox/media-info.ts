/**
 * What a recorder's file holds, read from its header: a PNG's size, an AVI's
 * frame count and rate (RIFF 'avih'), a WAV's format and data length. A file
 * whose header does not parse is reported as not playable.
 */

export interface MediaInfo {
  format: 'png' | 'avi' | 'wav';
  width?: number;
  height?: number;
  frames?: number;
  fps?: number;
  sample_rate?: number;
  channels?: number;
  duration_ms?: number;
}

export function mediaInfo(file: Uint8Array): MediaInfo | undefined {
  const b = Buffer.from(file.buffer, file.byteOffset, file.byteLength);
  if (b.length >= 24 && b.readUInt32BE(0) === 0x89504e47 && b.toString('latin1', 12, 16) === 'IHDR')
    return { format: 'png', width: b.readUInt32BE(16), height: b.readUInt32BE(20) };
  if (b.length < 12 || b.toString('latin1', 0, 4) !== 'RIFF') return undefined;
  const kind = b.toString('latin1', 8, 12);
  if (kind === 'AVI ') {
    const avih = b.indexOf('avih', 12, 'latin1');
    if (avih < 0 || avih + 48 > b.length) return undefined;
    const usPerFrame = b.readUInt32LE(avih + 8);
    const frames = b.readUInt32LE(avih + 24);
    if (!usPerFrame || !frames) return undefined;
    return {
      format: 'avi',
      frames,
      fps: Math.round(1e8 / usPerFrame) / 100,
      width: b.readUInt32LE(avih + 40),
      height: b.readUInt32LE(avih + 44),
      duration_ms: Math.round((frames * usPerFrame) / 1000),
    };
  }
  if (kind === 'WAVE') {
    let fmt: { channels: number; rate: number; byteRate: number } | undefined;
    for (let at = 12; at + 8 <= b.length;) {
      const id = b.toString('latin1', at, at + 4);
      const size = b.readUInt32LE(at + 4);
      if (id === 'fmt ' && at + 24 <= b.length)
        fmt = { channels: b.readUInt16LE(at + 10), rate: b.readUInt32LE(at + 12), byteRate: b.readUInt32LE(at + 16) };
      if (id === 'data' && fmt && fmt.byteRate)
        return {
          format: 'wav',
          sample_rate: fmt.rate,
          channels: fmt.channels,
          duration_ms: Math.round((Math.min(size, b.length - at - 8) * 1000) / fmt.byteRate),
        };
      at += 8 + size + (size & 1);
    }
  }
  return undefined;
}

/** A 16-bit PCM WAV of interleaved float samples in [-1, 1]. */
export function encodeWav(samples: Float32Array, sampleRate: number, channels: number): Buffer {
  const data = Buffer.alloc(samples.length * 2);
  for (let i = 0; i < samples.length; i++)
    data.writeInt16LE(Math.max(-32768, Math.min(32767, Math.round(samples[i] * 32767))), i * 2);
  const h = Buffer.alloc(44);
  h.write('RIFF', 0, 'latin1');
  h.writeUInt32LE(36 + data.length, 4);
  h.write('WAVEfmt ', 8, 'latin1');
  h.writeUInt32LE(16, 16);
  h.writeUInt16LE(1, 20);
  h.writeUInt16LE(channels, 22);
  h.writeUInt32LE(sampleRate, 24);
  h.writeUInt32LE(sampleRate * channels * 2, 28);
  h.writeUInt16LE(channels * 2, 32);
  h.writeUInt16LE(16, 34);
  h.write('data', 36, 'latin1');
  h.writeUInt32LE(data.length, 40);
  return Buffer.concat([h, data]);
}
