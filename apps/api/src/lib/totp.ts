import { createHmac, timingSafeEqual } from 'node:crypto';

/** RFC 4648's base32 alphabet (authenticator apps read the shared secret in it). */
const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/** RFC 4648 base32, with `=` padding unless `padding` is false (otpauth:// URIs leave it out). */
export function base32Encode(bytes: Uint8Array, padding = true): string {
  let out = '';
  let buffer = 0;
  let bits = 0;
  for (const byte of bytes) {
    buffer = (buffer << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += BASE32[(buffer >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += BASE32[(buffer << (5 - bits)) & 31];
  return padding ? out.padEnd(Math.ceil(out.length / 8) * 8, '=') : out;
}

/** Reads base32 (any case, padding and spaces optional); null when a character is not base32. */
export function base32Decode(text: string): Buffer | null {
  const clean = text.replace(/[\s=]/g, '').toUpperCase();
  const bytes: number[] = [];
  let buffer = 0;
  let bits = 0;
  for (const char of clean) {
    const value = BASE32.indexOf(char);
    if (value < 0) return null;
    buffer = ((buffer << 5) | value) & 0xffff;
    bits += 5;
    if (bits >= 8) {
      bytes.push((buffer >>> (bits - 8)) & 0xff);
      bits -= 8;
    }
  }
  return Buffer.from(bytes);
}

export type TotpAlgorithm = 'sha1' | 'sha256' | 'sha512';

export interface TotpOptions {
  /** 6 by default (what authenticator apps show); RFC 6238's test vectors use 8. */
  digits?: number;
  /** Seconds per time step: 30 by default. */
  stepSeconds?: number;
  algorithm?: TotpAlgorithm;
}

/** RFC 4226's HOTP: the HMAC of the counter, dynamically truncated to `digits` decimal digits. */
export function hotp(secret: Uint8Array, counter: number, digits = 6, algorithm: TotpAlgorithm = 'sha1'): string {
  const message = Buffer.alloc(8);
  message.writeBigUInt64BE(BigInt(counter));
  const mac = createHmac(algorithm, secret).update(message).digest();
  const offset = (mac[mac.length - 1] ?? 0) & 0x0f;
  const value = mac.readUInt32BE(offset) & 0x7fffffff;
  return String(value % 10 ** digits).padStart(digits, '0');
}

/** The RFC 6238 time step a moment falls in. */
export const timeStep = (at: Date, stepSeconds = 30): number => Math.floor(at.getTime() / 1000 / stepSeconds);

/** RFC 6238's TOTP: HOTP over the time step of `at`. */
export function totp(secret: Uint8Array, at: Date, options: TotpOptions = {}): string {
  return hotp(secret, timeStep(at, options.stepSeconds), options.digits, options.algorithm);
}

/**
 * The time step whose code `code` is, among the step of `at` and `window` steps either side (the clock of
 * an authenticator app drifts), or null. Every candidate is compared, in constant time, so the answer's
 * timing does not tell which step matched.
 */
export function matchingStep(secret: Uint8Array, code: string, at: Date, window = 1, options: TotpOptions = {}) {
  const current = timeStep(at, options.stepSeconds);
  const given = Buffer.from(code);
  let found: number | null = null;
  for (let step = current - window; step <= current + window; step += 1) {
    const expected = Buffer.from(hotp(secret, step, options.digits, options.algorithm));
    if (expected.length === given.length && timingSafeEqual(expected, given) && found === null) found = step;
  }
  return found;
}
