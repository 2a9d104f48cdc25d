import { SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { TokenSigner } from './tokens.js';

const secret = 'a-test-secret-that-is-long-enough!!';
const signer = new TokenSigner(secret);
const claims = { accountId: '6f1c2b1e-5d7a-4c8e-9a0b-1c2d3e4f5a6b', sessionId: 'd3b07384-d9a0-4c3b-8f1e-2a3b4c5d6e7f' };

describe('TokenSigner', () => {
  it('round-trips its own tokens', async () => {
    const token = await signer.sign(claims, new Date(Date.now() + 60_000));
    expect(await signer.verify(token)).toEqual(claims);
  });

  it('refuses expired tokens, other keys, audiences and algorithms', async () => {
    expect(await signer.verify(await signer.sign(claims, new Date(Date.now() - 1000)))).toBeNull();
    expect(
      await new TokenSigner('another-secret-long-enough-too!!!').verify(
        await signer.sign(claims, new Date(Date.now() + 60_000)),
      ),
    ).toBeNull();
    const key = new TextEncoder().encode(secret);
    const base = () =>
      new SignJWT({ sid: claims.sessionId })
        .setSubject(claims.accountId)
        .setIssuer('streamcloud')
        .setExpirationTime('1h');
    expect(
      await signer.verify(await base().setProtectedHeader({ alg: 'HS256' }).setAudience('elsewhere').sign(key)),
    ).toBeNull();
    expect(
      await signer.verify(await base().setProtectedHeader({ alg: 'HS512' }).setAudience('streamcloud-api').sign(key)),
    ).toBeNull();
    expect(
      await signer.verify(await base().setProtectedHeader({ alg: 'HS256' }).setAudience('streamcloud-api').sign(key)),
    ).toEqual(claims);
  });

  it('judges expiry by its clock, as sessions are', async () => {
    let now = new Date('2020-01-01T10:00:00Z');
    const clocked = new TokenSigner(secret, { now: () => now });
    const token = await clocked.sign(claims, new Date('2020-01-01T11:00:00Z'));
    expect(await clocked.verify(token)).toEqual(claims);
    now = new Date('2020-01-01T11:00:01Z');
    expect(await clocked.verify(token)).toBeNull();
  });
});
