import {
  base64ByteLength,
  checkImage,
  dataUriPayload,
  type ImageInfo,
  type ImageLimits,
  imageDataUri,
} from '@streamcloud/contract';
import { badRequest } from './errors.js';

export interface DecodedImage {
  image: ImageInfo;
  bytes: Buffer;
}

/**
 * Decodes an uploaded image (a base64 data URI) and judges it by its bytes — type from the PNG/JPEG
 * header, never the URI's media type; size; dimensions — answering 400 with the limit's own message.
 */
export function decodeImageDataUri(uri: string, limits: ImageLimits): DecodedImage {
  const payload = dataUriPayload(uri);
  if (payload === null) throw badRequest(limits.messages.type, 'INVALID_IMAGE');
  if (base64ByteLength(payload) > limits.maxBytes) throw badRequest(limits.messages.size, 'INVALID_IMAGE');
  return checkImageBytes(Buffer.from(payload, 'base64'), limits);
}

export function checkImageBytes(bytes: Buffer, limits: ImageLimits): DecodedImage {
  const check = checkImage(bytes, limits);
  if (!check.ok) throw badRequest(check.message, 'INVALID_IMAGE');
  return { image: check.image, bytes };
}

/** The stored bytes as a data URI of their own type. */
export function toDataUri(contentType: ImageInfo['contentType'], bytes: Uint8Array): string {
  return imageDataUri(
    { contentType },
    Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64'),
  );
}

export const asBuffer = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
