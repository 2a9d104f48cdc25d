import { OVERLAY_IMAGE_LIMITS } from '@streamcloud/contract';
import { describe, expect, it } from 'vitest';
import { pngBytes } from '@/test/images';
import { readImageFile } from './image-file';

/** PNG bytes labelled as JPEG: the bytes decide the type. */
const png = (width: number, height: number, size = 64) =>
  new Blob([pngBytes(width, height, size)], { type: 'image/jpeg' });

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
