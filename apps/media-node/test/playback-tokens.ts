import { mintPlaybackToken } from '@streamcloud/playback-tokens/mint';
import { expect } from 'vitest';
import type { MediaWorld } from './streams.js';

/** An account's ES256 playback signing key, as the API shows it once: its id (the tokens' kid) and private key. */
export interface TestSigningKey {
  kid: string;
  privateKeyPem: string;
}

/** Makes an ES256 signing key of the world's account (POST /playback-keys). */
export async function createSigningKey(world: MediaWorld, name = 'media test'): Promise<TestSigningKey> {
  const created = await world.plane.api<TestSigningKey>('POST', '/playback-keys', { name, algorithm: 'ES256' });
  expect(created.status).toBe(201);
  return created.body;
}

export const nowSeconds = () => Math.floor(Date.now() / 1000);

/** A playback token signed with `key`, valid 10 minutes unless `claims` say otherwise (what sell-access.md's script does). */
export const mintToken = (key: TestSigningKey, claims: Record<string, unknown>, kid = key.kid): string =>
  mintPlaybackToken(key, claims, kid);
