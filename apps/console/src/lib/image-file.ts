import { bytesToBase64, checkImage, type ImageInfo, type ImageLimits, imageDataUri } from '@streamcloud/contract';

export type ImageFileResult = { ok: true; image: ImageInfo; dataUri: string } | { ok: false; message: string };

/**
 * Reads a picked file and judges it by its bytes with the contract's check (the server runs the same
 * one): size, PNG/JPEG header, dimensions. Answers a data URI of the type the bytes are.
 */
export async function readImageFile(file: Blob, limits: ImageLimits): Promise<ImageFileResult> {
  if (file.size > limits.maxBytes) return { ok: false, message: limits.messages.size };
  const bytes = new Uint8Array(await file.arrayBuffer());
  const check = checkImage(bytes, limits);
  if (!check.ok) return check;
  return { ok: true, image: check.image, dataUri: imageDataUri(check.image, bytesToBase64(bytes)) };
}
