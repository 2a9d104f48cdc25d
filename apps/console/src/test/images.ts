const u32 = (value: number) => [(value >>> 24) & 255, (value >>> 16) & 255, (value >>> 8) & 255, value & 255];

/** The first bytes of a PNG of `width` x `height` (signature and IHDR), padded to `size` bytes: enough to probe. */
export function pngBytes(width: number, height: number, size = 100): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(size);
  bytes.set([
    0x89,
    0x50,
    0x4e,
    0x47,
    0x0d,
    0x0a,
    0x1a,
    0x0a,
    ...u32(13),
    0x49,
    0x48,
    0x44,
    0x52,
    ...u32(width),
    ...u32(height),
  ]);
  return bytes;
}

/** A PNG file of `width` x `height`, as an upload input hands it over. */
export function pngFile(width: number, height: number, size = 100, name = 'image.png'): File {
  return new File([pngBytes(width, height, size)], name, { type: 'image/png' });
}
