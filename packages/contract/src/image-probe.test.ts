import { describe, expect, it } from 'vitest';
import {
  base64ByteLength,
  base64ToBytes,
  bytesToBase64,
  checkImage,
  dataUriPayload,
  OVERLAY_IMAGE_LIMITS,
  probeImage,
  SLATE_IMAGE_LIMITS,
} from './image-probe.js';

const u32 = (value: number) => [(value >>> 24) & 255, (value >>> 16) & 255, (value >>> 8) & 255, value & 255];

/** PNG signature + IHDR (what the probe reads), padded to `size` bytes. */
function png(width: number, height: number, size = 64): Uint8Array {
  const head = [
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
    8,
    6,
    0,
    0,
    0,
    0,
    0,
    0,
    0,
  ];
  const bytes = new Uint8Array(Math.max(size, head.length));
  bytes.set(head);
  return bytes;
}

/** SOI, an APP0 segment, then SOF (baseline or progressive) with the dimensions, padded to `size`. */
function jpeg(width: number, height: number, { size = 64, sof = 0xc0, fill = false } = {}): Uint8Array {
  const app0 = [0xff, 0xe0, 0, 16, 0x4a, 0x46, 0x49, 0x46, 0, 1, 1, 0, 0, 1, 0, 1, 0, 0];
  const sofSegment = [
    ...(fill ? [0xff] : []),
    0xff,
    sof,
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
  ];
  const head = [0xff, 0xd8, ...app0, ...sofSegment];
  const bytes = new Uint8Array(Math.max(size, head.length));
  bytes.set(head);
  return bytes;
}

describe('probeImage', () => {
  it('reads a PNG from its IHDR', () => {
    expect(probeImage(png(361, 20))).toEqual({ kind: 'png', contentType: 'image/png', width: 361, height: 20 });
  });

  it('reads a JPEG from its SOF marker, baseline or progressive, after fill bytes', () => {
    expect(probeImage(jpeg(640, 360))).toEqual({ kind: 'jpeg', contentType: 'image/jpeg', width: 640, height: 360 });
    expect(probeImage(jpeg(1920, 1081, { sof: 0xc2, fill: true }))).toMatchObject({ width: 1920, height: 1081 });
  });

  it('refuses other bytes, truncated headers and a scan before any frame', () => {
    expect(probeImage(new TextEncoder().encode('GIF89a..........................'))).toBeNull();
    expect(probeImage(png(10, 10).subarray(0, 20))).toBeNull();
    expect(probeImage(new Uint8Array([0xff, 0xd8, 0xff, 0xda, 0, 4, 0, 0]))).toBeNull();
    expect(probeImage(png(0, 10))).toBeNull();
  });
});

describe('checkImage', () => {
  it('takes images up to the size limit and refuses one byte more', () => {
    expect(checkImage(png(100, 100, 1_000_000), OVERLAY_IMAGE_LIMITS).ok).toBe(true);
    expect(checkImage(png(100, 100, 1_000_001), OVERLAY_IMAGE_LIMITS)).toEqual({
      ok: false,
      message: 'Maximum size allowed is 1 Mb',
    });
    expect(checkImage(jpeg(100, 100, { size: 5_000_000 }), SLATE_IMAGE_LIMITS).ok).toBe(true);
    expect(checkImage(jpeg(100, 100, { size: 5_000_001 }), SLATE_IMAGE_LIMITS)).toMatchObject({
      message: 'Maximum size allowed is 5 Mb',
    });
  });

  it('refuses anything but PNG and JPEG', () => {
    expect(
      checkImage(new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg"/>'), OVERLAY_IMAGE_LIMITS),
    ).toEqual({
      ok: false,
      message: 'Only Images are allowed ( JPG | PNG )',
    });
  });

  it('refuses an image only when both sides exceed the limit', () => {
    for (const [width, height] of [
      [360, 360],
      [361, 360],
      [360, 361],
      [2000, 10],
      [10, 2000],
    ] as const) {
      expect(checkImage(png(width, height), OVERLAY_IMAGE_LIMITS).ok, `${width}x${height}`).toBe(true);
    }
    expect(checkImage(png(361, 361), OVERLAY_IMAGE_LIMITS)).toEqual({
      ok: false,
      message: 'Maximum dimensions allowed 360x360 px',
    });
    expect(checkImage(jpeg(1920, 1080), SLATE_IMAGE_LIMITS).ok).toBe(true);
    expect(checkImage(jpeg(1921, 1080), SLATE_IMAGE_LIMITS).ok).toBe(true);
    expect(checkImage(jpeg(1921, 1081), SLATE_IMAGE_LIMITS)).toMatchObject({
      message: 'Maximum dimensions allowed 1920x1080 px',
    });
  });
});

describe('data URIs and base64', () => {
  it('reads the payload of a base64 data URI only', () => {
    expect(dataUriPayload('data:image/png;base64,iVBORw0KGgo=')).toBe('iVBORw0KGgo=');
    expect(dataUriPayload('data:;base64,AAAA')).toBe('AAAA');
    expect(dataUriPayload('data:image/png,plain')).toBeNull();
    expect(dataUriPayload('data:image/png;base64,not base64!')).toBeNull();
    expect(dataUriPayload('https://example.com/a.png')).toBeNull();
  });

  it('round-trips bytes and counts them without decoding', () => {
    const bytes = png(5, 5, 1000);
    const base64 = bytesToBase64(bytes);
    expect(base64ToBytes(base64)).toEqual(bytes);
    expect(base64ByteLength(base64)).toBe(1000);
    expect(base64ByteLength(bytesToBase64(new Uint8Array(1001)))).toBe(1001);
    expect(base64ByteLength(bytesToBase64(new Uint8Array(1002)))).toBe(1002);
  });
});
