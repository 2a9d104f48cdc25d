import { describe, expect, it } from 'vitest';
import { edgeKeyOf, signEdgeCredential, verifyEdgeCredential } from './edge-credential.js';
import { previewKeyOf, signPreviewCredential, verifyPreviewCredential } from './preview-credential.js';

const STREAM = '6f1c2a52-8f0e-4e57-9d6a-3b1d2f0c9a11';
const EDGE = '0b7e9d55-1c4b-4a0e-8d3e-5b2c1a9f7e22';
const key = edgeKeyOf('root-signing-key', STREAM);
const now = new Date('2026-01-01T00:00:00Z');
const inTenMinutes = new Date(now.getTime() + 600_000);

describe('edge pull credentials', () => {
  it('name the pulling node and are valid for their stream until they expire', () => {
    const token = signEdgeCredential(key, STREAM, EDGE, inTenMinutes);
    expect(token.startsWith(`ep1.${EDGE}.`)).toBe(true);
    expect(verifyEdgeCredential(key, STREAM, token, now)).toBe(EDGE);
    expect(verifyEdgeCredential(key, STREAM, token, inTenMinutes)).toBeNull();
  });

  it('are refused for another stream, with another key, for another node or altered', () => {
    const token = signEdgeCredential(key, STREAM, EDGE, inTenMinutes);
    expect(verifyEdgeCredential(edgeKeyOf('root-signing-key', EDGE), EDGE, token, now)).toBeNull();
    expect(verifyEdgeCredential(edgeKeyOf('another-root', STREAM), STREAM, token, now)).toBeNull();
    expect(verifyEdgeCredential(key, STREAM, token.replace(EDGE, STREAM), now)).toBeNull();
    expect(verifyEdgeCredential(key, STREAM, `${token}.x`, now)).toBeNull();
  });

  it('are not preview credentials, nor the preview key an edge key', () => {
    const token = signEdgeCredential(key, STREAM, EDGE, inTenMinutes);
    expect(verifyPreviewCredential(key, STREAM, token, now)).toBe(false);
    const preview = signPreviewCredential(previewKeyOf('root-signing-key', STREAM), STREAM, inTenMinutes);
    expect(verifyEdgeCredential(key, STREAM, preview, now)).toBeNull();
    expect(previewKeyOf('root-signing-key', STREAM)).not.toBe(key);
  });
});
