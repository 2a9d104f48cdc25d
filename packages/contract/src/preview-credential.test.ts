import { describe, expect, it } from 'vitest';
import {
  isPreviewCredential,
  previewKeyOf,
  signPreviewCredential,
  verifyPreviewCredential,
} from './preview-credential.js';

const STREAM = '6f1c2a52-8f0e-4e57-9d6a-3b1d2f0c9a11';
const OTHER = '0b7e9d55-1c4b-4a0e-8d3e-5b2c1a9f7e22';
const key = previewKeyOf('root-signing-key', STREAM);
const now = new Date('2026-01-01T00:00:00Z');
const inTenMinutes = new Date(now.getTime() + 600_000);

describe('preview credentials', () => {
  it('are valid for their stream until they expire', () => {
    const token = signPreviewCredential(key, STREAM, inTenMinutes);
    expect(isPreviewCredential(token)).toBe(true);
    expect(verifyPreviewCredential(key, STREAM, token, now)).toBe(true);
    expect(verifyPreviewCredential(key, STREAM, token, inTenMinutes)).toBe(false);
  });

  it('are refused for another stream, with another key, or altered', () => {
    const token = signPreviewCredential(key, STREAM, inTenMinutes);
    expect(verifyPreviewCredential(previewKeyOf('root-signing-key', OTHER), OTHER, token, now)).toBe(false);
    expect(verifyPreviewCredential(previewKeyOf('another-root', STREAM), STREAM, token, now)).toBe(false);
    const [prefix, expiry, signature] = token.split('.');
    const later = `${prefix}.${Number(expiry) + 3600}.${signature}`;
    expect(verifyPreviewCredential(key, STREAM, later, now)).toBe(false);
    expect(verifyPreviewCredential(key, STREAM, `${token}.x`, now)).toBe(false);
    expect(verifyPreviewCredential(key, STREAM, 'pv1..', now)).toBe(false);
  });

  it('are told apart from viewer tokens by their form', () => {
    expect(isPreviewCredential('a1b2c3d4e5f6')).toBe(false);
    expect(isPreviewCredential(null)).toBe(false);
  });

  it('keys differ per stream', () => {
    expect(previewKeyOf('root-signing-key', OTHER)).not.toBe(key);
  });
});
