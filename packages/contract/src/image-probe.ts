/**
 * Reads an image's type and dimensions from its bytes (PNG signature + IHDR, JPEG SOI + SOF marker),
 * so the console and the server judge an upload by what it is, never by its file name or media type.
 * Pure and dependency-free: it runs in the browser and in Node alike.
 */
export type ImageKind = 'png' | 'jpeg';

export interface ImageInfo {
  kind: ImageKind;
  /** The media type the bytes stand for. */
  contentType: 'image/png' | 'image/jpeg';
  width: number;
  height: number;
}

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

const u16 = (bytes: Uint8Array, at: number) => ((bytes[at] ?? 0) << 8) | (bytes[at + 1] ?? 0);
const u32 = (bytes: Uint8Array, at: number) => u16(bytes, at) * 0x10000 + u16(bytes, at + 2);

function probePng(bytes: Uint8Array): ImageInfo | null {
  // signature (8), IHDR length (4) = 13, type "IHDR" (4), width (4), height (4)
  if (bytes.length < 24 || !PNG_SIGNATURE.every((value, index) => bytes[index] === value)) return null;
  const type = String.fromCharCode(bytes[12] ?? 0, bytes[13] ?? 0, bytes[14] ?? 0, bytes[15] ?? 0);
  if (type !== 'IHDR' || u32(bytes, 8) !== 13) return null;
  const width = u32(bytes, 16);
  const height = u32(bytes, 20);
  if (width === 0 || height === 0) return null;
  return { kind: 'png', contentType: 'image/png', width, height };
}

/** Start-of-frame markers (baseline, extended, progressive, lossless; Huffman or arithmetic). */
const SOF_MARKERS = new Set([0xc0, 0xc1, 0xc2, 0xc3, 0xc5, 0xc6, 0xc7, 0xc9, 0xca, 0xcb, 0xcd, 0xce, 0xcf]);

function probeJpeg(bytes: Uint8Array): ImageInfo | null {
  if (bytes.length < 4 || bytes[0] !== 0xff || bytes[1] !== 0xd8) return null;
  let at = 2;
  while (at + 3 < bytes.length) {
    if (bytes[at] !== 0xff) return null;
    let marker = bytes[at + 1] ?? 0;
    // Fill bytes: any number of 0xFF before a marker.
    while (marker === 0xff && at + 2 < bytes.length) {
      at++;
      marker = bytes[at + 1] ?? 0;
    }
    at += 2;
    // Markers without a length: TEM and RST0..7; SOI again or EOI end the search.
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) continue;
    if (marker === 0xd8 || marker === 0xd9 || marker === 0xda) return null;
    const length = u16(bytes, at);
    if (length < 2 || at + length > bytes.length) return null;
    if (SOF_MARKERS.has(marker)) {
      if (length < 7) return null;
      const height = u16(bytes, at + 3);
      const width = u16(bytes, at + 5);
      if (width === 0 || height === 0) return null;
      return { kind: 'jpeg', contentType: 'image/jpeg', width, height };
    }
    at += length;
  }
  return null;
}

/** The image's type and size, or null when the bytes are neither a PNG nor a JPEG with a readable header. */
export function probeImage(bytes: Uint8Array): ImageInfo | null {
  return probePng(bytes) ?? probeJpeg(bytes);
}

export interface ImageLimits {
  /** Largest accepted size in bytes (base 10: 1 MB is 1 000 000 bytes). */
  maxBytes: number;
  /** An image is refused only when it is wider than maxWidth AND taller than maxHeight. */
  maxWidth: number;
  maxHeight: number;
  messages: { size: string; type: string; dimensions: string };
}

export const IMAGE_TYPE_MESSAGE = 'Only Images are allowed ( JPG | PNG )';

/** The overlay logo: PNG or JPEG, at most 1 MB, refused only when both sides exceed 360 px. */
export const OVERLAY_IMAGE_LIMITS: ImageLimits = {
  maxBytes: 1_000_000,
  maxWidth: 360,
  maxHeight: 360,
  messages: {
    size: 'Maximum size allowed is 1 Mb',
    type: IMAGE_TYPE_MESSAGE,
    dimensions: 'Maximum dimensions allowed 360x360 px',
  },
};

/** A fallback slate: PNG or JPEG, at most 5 MB, refused only when both sides exceed 1920x1080. */
export const SLATE_IMAGE_LIMITS: ImageLimits = {
  maxBytes: 5_000_000,
  maxWidth: 1920,
  maxHeight: 1080,
  messages: {
    size: 'Maximum size allowed is 5 Mb',
    type: IMAGE_TYPE_MESSAGE,
    dimensions: 'Maximum dimensions allowed 1920x1080 px',
  },
};

export type ImageCheck = { ok: true; image: ImageInfo } | { ok: false; message: string };

/** Size first, then type, then dimensions (the spec's order of the three messages). */
export function checkImage(bytes: Uint8Array, limits: ImageLimits): ImageCheck {
  if (bytes.length > limits.maxBytes) return { ok: false, message: limits.messages.size };
  const image = probeImage(bytes);
  if (!image) return { ok: false, message: limits.messages.type };
  if (image.width > limits.maxWidth && image.height > limits.maxHeight) {
    return { ok: false, message: limits.messages.dimensions };
  }
  return { ok: true, image };
}

const DATA_URI = /^data:([\w.+-]+\/[\w.+-]+)?((?:;[\w.+-]+=[\w.+-]+)*);base64,([A-Za-z0-9+/]*={0,2})$/;

/** The base64 payload of a `data:…;base64,…` URI, or null when it is not one. */
export function dataUriPayload(uri: string): string | null {
  const match = DATA_URI.exec(uri);
  return match ? (match[3] ?? '') : null;
}

/** How many bytes a base64 text decodes to, without decoding it. */
export function base64ByteLength(base64: string): number {
  const padding = base64.endsWith('==') ? 2 : base64.endsWith('=') ? 1 : 0;
  return Math.floor((base64.length * 3) / 4) - padding;
}

/** Decodes base64 with the platform's atob (browser and Node alike). */
export function base64ToBytes(base64: string): Uint8Array {
  const text = atob(base64);
  const bytes = new Uint8Array(text.length);
  for (let index = 0; index < text.length; index++) bytes[index] = text.charCodeAt(index);
  return bytes;
}

export function bytesToBase64(bytes: Uint8Array): string {
  let text = '';
  const chunk = 0x8000;
  for (let index = 0; index < bytes.length; index += chunk) {
    text += String.fromCharCode(...bytes.subarray(index, index + chunk));
  }
  return btoa(text);
}

/** A data URI whose media type is the one read from the bytes. */
export function imageDataUri(image: Pick<ImageInfo, 'contentType'>, base64: string): string {
  return `data:${image.contentType};base64,${base64}`;
}

/** The longest data URI that can carry `maxBytes` bytes (with a generous media-type prefix). */
export function maxDataUriLength(maxBytes: number): number {
  return Math.ceil(maxBytes / 3) * 4 + 100;
}
