import { deflateSync } from 'node:zlib';

/**
 * Real images of a chosen size in pixels and in bytes, for the upload limits' boundaries: a PNG whose
 * pixels decode (one colour) with a tEXt chunk padding it to the wanted byte size, and a JPEG header
 * (SOI, JFIF, SOF0, EOI) padded with comment segments — what the byte probe reads.
 */
const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of bytes) crc = (CRC_TABLE[(crc ^ byte) & 0xff] as number) ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'ascii');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

export function makePng(
  width: number,
  height: number,
  options: { bytes?: number; rgb?: [number, number, number] } = {},
): Buffer {
  const [r, g, b] = options.rgb ?? [220, 40, 40];
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 2, 0, 0, 0], 8); // 8-bit RGB, no interlace
  const row = Buffer.alloc(1 + width * 3);
  for (let x = 0; x < width; x++) row.set([r, g, b], 1 + x * 3);
  const raw = Buffer.alloc(row.length * height);
  for (let y = 0; y < height; y++) row.copy(raw, y * row.length);
  const parts = [
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw, { level: 9 })),
  ];
  const end = chunk('IEND', Buffer.alloc(0));
  const size = parts.reduce((sum, part) => sum + part.length, 0) + end.length;
  const keyword = Buffer.from('Comment\0', 'latin1');
  const padding = (options.bytes ?? 0) - size - 12 - keyword.length;
  if (options.bytes !== undefined && padding < 0)
    throw new Error(`a ${width}x${height} PNG needs more than ${options.bytes} bytes`);
  if (padding >= 0 && options.bytes !== undefined)
    parts.push(chunk('tEXt', Buffer.concat([keyword, Buffer.alloc(padding, 0x20)])));
  return Buffer.concat([...parts, end]);
}

export function makeJpeg(width: number, height: number, options: { bytes?: number } = {}): Buffer {
  const soi = Buffer.from([0xff, 0xd8]);
  const app0 = Buffer.from([0xff, 0xe0, 0, 16, 0x4a, 0x46, 0x49, 0x46, 0, 1, 1, 0, 0, 1, 0, 1, 0, 0]);
  const sof0 = Buffer.from([
    0xff,
    0xc0,
    0,
    17,
    8,
    height >> 8,
    height & 255,
    width >> 8,
    width & 255,
    3,
    1,
    0x22,
    0,
    2,
    0x11,
    1,
    3,
    0x11,
    1,
  ]);
  const eoi = Buffer.from([0xff, 0xd9]);
  const parts = [soi, app0];
  let remaining = (options.bytes ?? 0) - soi.length - app0.length - sof0.length - eoi.length;
  while (remaining > 0) {
    // A comment segment: marker (2) + length (2) + up to 65533 bytes.
    if (remaining < 4) throw new Error('cannot pad a JPEG by fewer than 4 bytes');
    const size = remaining <= 65_537 ? remaining : Math.min(65_537, remaining - 4);
    const body = size - 4;
    const segment = Buffer.alloc(4 + body, 0x20);
    segment.set([0xff, 0xfe, (body + 2) >> 8, (body + 2) & 255], 0);
    parts.push(segment);
    remaining -= segment.length;
  }
  return Buffer.concat([...parts, sof0, eoi]);
}

export const dataUri = (bytes: Buffer, mediaType = 'image/png') =>
  `data:${mediaType};base64,${bytes.toString('base64')}`;
