import { OVERLAY_IMAGE_LIMITS } from '@streamcloud/contract';
import { describe, expect, it } from 'vitest';
import { readImageFile } from './image-file';

const u32 = (value: number) => [(value >>> 24) & 255, (value >>> 16) & 255, (value >>> 8) & 255, value & 255];
const png = (width: number, height: number, size = 64) => {
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
  return new Blob([bytes], { type: 'image/jpeg' });
};

describe('readImageFile', () => {
  it('answers a data URI of the type the bytes are', async () => {
    const result = await readImageFile(png(360, 360), OVERLAY_IMAGE_LIMITS);
    expect(result.ok && result.dataUri.startsWith('data:image/png;base64,iVBORw0KGgo')).toBe(true);
  });

  it('answers the limit messages', async () => {
    expect(await readImageFile(png(10, 10, 1_000_001), OVERLAY_IMAGE_LIMITS)).toEqual({
      ok: false,
      message: 'Maximum size allowed is 1 Mb',
    });
    expect(await readImageFile(new Blob(['GIF89a............................']), OVERLAY_IMAGE_LIMITS)).toEqual({
      ok: false,
      message: 'Only Images are allowed ( JPG | PNG )',
    });
    expect(await readImageFile(png(361, 361), OVERLAY_IMAGE_LIMITS)).toEqual({
      ok: false,
      message: 'Maximum dimensions allowed 360x360 px',
    });
  });
});
