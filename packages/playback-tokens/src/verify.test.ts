import { importPKCS8, SignJWT, UnsecuredJWT } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import { type GeneratedKey, generateSigningKey } from './generate.js';
import { PlaybackKeyring, type SigningAlgorithm, type VerificationKey } from './keyring.js';
import { REFUSAL_REASONS, REFUSALS, type RefusalReason } from './reasons.js';
import { VerifiedTokens, type VerifyOptions, verifyPlaybackToken } from './verify.js';

const NOW = new Date('2026-06-01T12:00:00Z');
const SECONDS = NOW.getTime() / 1000;
const target = { outputId: 'output-1', streamId: 'stream-1' };
const generated = {} as Record<SigningAlgorithm, GeneratedKey>;

function verificationKey(kid: string, key: GeneratedKey): VerificationKey {
  return key.algorithm === 'HS256'
    ? { kid, algorithm: 'HS256', secret: key.secret }
    : { kid, algorithm: key.algorithm, publicJwk: key.publicJwk };
}

/** Signs as a customer's backend does: with the PEM private key (or the secret) and the key's id. */
async function mint(
  algorithm: SigningAlgorithm,
  claims: Record<string, unknown> = {},
  header: { kid?: string; alg?: string } = {},
): Promise<string> {
  const key = generated[algorithm];
  const alg = header.alg ?? (algorithm === 'Ed25519' ? 'EdDSA' : algorithm);
  const signingKey =
    key.algorithm === 'HS256'
      ? key.secret
      : await importPKCS8(key.privatePem, key.algorithm === 'ES256' ? 'ES256' : 'EdDSA');
  return new SignJWT({ sub: 'output-1', exp: SECONDS + 600, jti: 'token-1', ...claims })
    .setProtectedHeader({ alg, kid: header.kid ?? algorithm })
    .sign(signingKey);
}

function options(overrides: Partial<VerifyOptions> = {}, viewer: Partial<VerifyOptions['viewer']> = {}): VerifyOptions {
  return {
    keys: new PlaybackKeyring(
      (Object.keys(generated) as SigningAlgorithm[]).map((alg) => verificationKey(alg, generated[alg])),
    ),
    target,
    viewer: { now: NOW, address: '203.0.113.7', country: 'FR', origin: 'https://shop.example', ...viewer },
    ...overrides,
  };
}

async function refusal(token: string, opts = options()): Promise<RefusalReason> {
  const verdict = verifyPlaybackToken(token, opts);
  if (verdict.ok) throw new Error('accepted');
  expect(verdict.message).toBe(REFUSALS[verdict.reason]);
  return verdict.reason;
}

beforeAll(async () => {
  for (const alg of ['ES256', 'Ed25519', 'HS256'] as const) generated[alg] = await generateSigningKey(alg);
});

describe.each(['ES256', 'Ed25519', 'HS256'] as const)('a %s token', (algorithm) => {
  it('is accepted for its output, and for its stream', async () => {
    const verdict = verifyPlaybackToken(await mint(algorithm), options());
    expect(verdict).toMatchObject({ ok: true, kid: algorithm, claims: { sub: 'output-1', jti: 'token-1' } });
    expect(verifyPlaybackToken(await mint(algorithm, { sub: 'stream-1' }), options())).toMatchObject({
      ok: true,
    });
  });

  it('is refused with a bad signature when altered or signed by another key of the same algorithm', async () => {
    const token = await mint(algorithm);
    const [head, body, signature = ''] = token.split('.');
    const altered = `${head}.${Buffer.from(JSON.stringify({ sub: 'output-1', exp: SECONDS + 9999 })).toString('base64url')}.${signature}`;
    expect(await refusal(altered)).toBe('bad_signature');
    const other = await generateSigningKey(algorithm);
    const keys = new PlaybackKeyring([verificationKey(algorithm, other)]);
    expect(await refusal(`${head}.${body}.${signature}`, options({ keys }))).toBe('bad_signature');
  });
});

describe('verifyPlaybackToken refuses', () => {
  it('anything that is not a JWT, and a header without kid', async () => {
    expect(await refusal('not a token')).toBe('malformed');
    expect(await refusal('')).toBe('malformed');
    expect(await refusal(`${await mint('ES256')}${'a'.repeat(9000)}`)).toBe('malformed');
    const noKid = await new SignJWT({ sub: 'output-1', exp: SECONDS + 60 })
      .setProtectedHeader({ alg: 'HS256' })
      .sign((generated.HS256 as { secret: Uint8Array }).secret);
    expect(await refusal(noKid)).toBe('malformed');
  });

  it('a kid the account does not have, or whose stored key is not of its algorithm', async () => {
    expect(await refusal(await mint('ES256', {}, { kid: 'someone-else' }))).toBe('unknown_key');
    const opts = options();
    const ed25519 = generated.Ed25519 as { publicJwk: object };
    opts.keys.set({ kid: 'ES256', algorithm: 'ES256', publicJwk: ed25519.publicJwk });
    expect(await refusal(await mint('ES256'), opts)).toBe('unknown_key');
  });

  it('a header naming critical extensions', async () => {
    const token = await new SignJWT({ sub: 'output-1', exp: SECONDS + 60 })
      .setProtectedHeader({ alg: 'HS256', kid: 'HS256', crit: ['b64'], b64: true })
      .sign((generated.HS256 as { secret: Uint8Array }).secret);
    expect(await refusal(token)).toBe('malformed');
  });

  it('alg none, and an algorithm the key was not made for', async () => {
    const unsecured = new UnsecuredJWT({ sub: 'output-1', exp: SECONDS + 60 }).encode();
    const [, payload] = unsecured.split('.');
    const none = `${Buffer.from(JSON.stringify({ alg: 'none', kid: 'ES256' })).toString('base64url')}.${payload}.`;
    expect(await refusal(none)).toBe('bad_signature');
    // The HMAC secret signs an HS256 token that names the ES256 key: the key only verifies ES256.
    expect(await refusal(await mint('HS256', {}, { kid: 'ES256' }))).toBe('bad_signature');
    // Key confusion: an HS256 token "signed" with the ES256 public key as a secret.
    const publicAsSecret = new TextEncoder().encode(
      JSON.stringify((generated.ES256 as { publicJwk: object }).publicJwk),
    );
    const confused = await new SignJWT({ sub: 'output-1', exp: SECONDS + 60 })
      .setProtectedHeader({ alg: 'HS256', kid: 'ES256' })
      .sign(publicAsSecret);
    expect(await refusal(confused)).toBe('bad_signature');
  });

  it('a revoked key, and a revoked token id', async () => {
    const opts = options();
    opts.keys.revoke('Ed25519');
    expect(await refusal(await mint('Ed25519'), opts)).toBe('key_revoked');
    const revokedTokenIds = new Set(['token-1']);
    expect(await refusal(await mint('ES256'), options({ revokedTokenIds }))).toBe('token_revoked');
    expect(verifyPlaybackToken(await mint('ES256', { jti: 'token-2' }), options({ revokedTokenIds }))).toMatchObject({
      ok: true,
    });
  });

  it('claims of the wrong shape, naming the claim and the rule', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ exp: undefined }, 'exp is required'],
      [{ sub: 42 }, 'sub must be a string of 1 to 200 characters'],
      [{ ips: ['10.0.0.0/33'] }, 'ips must be a list of 1 to 100 IP addresses or CIDR blocks'],
      [{ countries: ['fr'] }, 'countries must be a list of 1 to 300 two-letter ISO country codes in capitals'],
      [{ origins: ['shop.example'] }, 'origins must be a list of 1 to 50 origins such as https://shop.example'],
      [{ maxSessions: 0 }, 'maxSessions must be a whole number from 1 to 100000'],
      [{ maxSessionSeconds: 1.5 }, 'maxSessionSeconds must be a whole number from 1 to 2592000'],
    ];
    for (const [claims, detail] of cases) {
      const verdict = verifyPlaybackToken(await mint('ES256', claims), options());
      expect(verdict).toEqual({ ok: false, reason: 'invalid_claims', message: REFUSALS.invalid_claims, detail });
    }
  });

  it('another output', async () => {
    expect(await refusal(await mint('ES256', { sub: 'output-2' }))).toBe('wrong_output');
  });

  it('before nbf and from exp on, with the leeway given', async () => {
    expect(await refusal(await mint('ES256', { nbf: SECONDS + 10 }))).toBe('not_yet_valid');
    expect(await refusal(await mint('ES256', { exp: SECONDS }))).toBe('expired');
    expect(await refusal(await mint('ES256', { exp: SECONDS - 1 }))).toBe('expired');
    const lenient = options({ leewaySeconds: 30 });
    expect(verifyPlaybackToken(await mint('ES256', { nbf: SECONDS + 10 }), lenient)).toMatchObject({ ok: true });
    expect(verifyPlaybackToken(await mint('ES256', { exp: SECONDS - 10 }), lenient)).toMatchObject({ ok: true });
  });

  it('an address outside the IPv4 and IPv6 addresses and blocks allowed', async () => {
    const token = await mint('ES256', { ips: ['198.51.100.0/24', '2001:db8::/32', '192.0.2.1'] });
    for (const address of ['198.51.100.9', '::ffff:198.51.100.9', '2001:db8:1::5', '[2001:db8::1]', '192.0.2.1']) {
      expect(verifyPlaybackToken(token, options({}, { address })), address).toMatchObject({ ok: true });
    }
    for (const address of ['198.51.101.9', '2001:db9::1', '192.0.2.2', null, 'nonsense']) {
      expect(await refusal(token, options({}, { address })), String(address)).toBe('wrong_address');
    }
  });

  it('a country not allowed, or unknown', async () => {
    const token = await mint('ES256', { countries: ['FR', 'BE'] });
    expect(verifyPlaybackToken(token, options({}, { country: 'be' }))).toMatchObject({ ok: true });
    expect(await refusal(token, options({}, { country: 'US' }))).toBe('wrong_country');
    expect(await refusal(token, options({}, { country: null }))).toBe('wrong_country');
  });

  it('a page origin or referrer not allowed (subdomains by wildcard)', async () => {
    const token = await mint('ES256', { origins: ['https://shop.example', 'https://*.courses.example'] });
    const accepted = [
      { origin: 'https://shop.example' },
      { origin: null, referrer: 'https://shop.example/watch?v=1' },
      { origin: 'https://a.courses.example' },
    ];
    for (const viewer of accepted) expect(verifyPlaybackToken(token, options({}, viewer))).toMatchObject({ ok: true });
    const refused = [
      { origin: 'http://shop.example' },
      { origin: 'https://shop.example.evil' },
      { origin: 'https://courses.example' },
      { origin: 'https://evilcourses.example' },
      { origin: null, referrer: null },
      { origin: 'null' },
    ];
    for (const viewer of refused)
      expect(await refusal(token, options({}, viewer)), JSON.stringify(viewer)).toBe('wrong_origin');
  });

  it('a session over the token maximum', async () => {
    const token = await mint('ES256', { maxSessions: 2 });
    expect(verifyPlaybackToken(token, options({}, { activeSessions: 1 }))).toMatchObject({ ok: true });
    expect(await refusal(token, options({}, { activeSessions: 2 }))).toBe('too_many_sessions');
  });

  it('asks a lazy country and session count only for a token that restricts them', async () => {
    let asked = 0;
    const lazy = {
      country: () => {
        asked++;
        return 'BE';
      },
      activeSessions: () => {
        asked++;
        return 2;
      },
    };
    expect(verifyPlaybackToken(await mint('ES256'), options({}, lazy))).toMatchObject({ ok: true });
    expect(asked).toBe(0);
    expect(await refusal(await mint('ES256', { countries: ['FR'] }), options({}, lazy))).toBe('wrong_country');
    expect(await refusal(await mint('ES256', { maxSessions: 2 }), options({}, lazy))).toBe('too_many_sessions');
    expect(asked).toBe(2);
  });

  it('a session past its duration cap, while one started before expiry plays on', async () => {
    const token = await mint('ES256', { exp: SECONDS + 60, maxSessionSeconds: 3600 });
    const started = verifyPlaybackToken(token, options());
    expect(started).toMatchObject({ ok: true, sessionEndsAt: new Date(NOW.getTime() + 3600_000) });
    const later = (ms: number) => options({}, { now: new Date(NOW.getTime() + ms), sessionStartedAt: NOW });
    expect(verifyPlaybackToken(token, later(600_000))).toMatchObject({ ok: true });
    expect(await refusal(token, later(3600_000))).toBe('session_over');
    // A new session after expiry is refused.
    expect(await refusal(token, options({}, { now: new Date(NOW.getTime() + 600_000) }))).toBe('expired');
  });
});

describe('verified tokens (the cache a node keeps)', () => {
  it('skip the signature once checked, but never a revocation, the claims or an altered token', async () => {
    const verified = new VerifiedTokens(2);
    const token = await mint('ES256', { ips: ['203.0.113.7'] });
    expect(verifyPlaybackToken(token, options({ verified }))).toMatchObject({ ok: true });
    expect(verified.size).toBe(1);
    // A hit still judges the claims against this viewer, and the key's and the token's revocation.
    expect(await refusal(token, options({ verified }, { address: '198.51.100.1' }))).toBe('wrong_address');
    expect(await refusal(token, options({ verified, revokedTokenIds: new Set(['token-1']) }))).toBe('token_revoked');
    const keys = options().keys;
    keys.revoke('ES256');
    expect(await refusal(token, options({ verified, keys }))).toBe('key_revoked');
    keys.delete('ES256');
    expect(await refusal(token, options({ verified, keys }))).toBe('unknown_key');
    // Another token (an altered one) is not a hit; refusals are not kept; the oldest goes past the limit.
    expect(await refusal(`${token}x`, options({ verified }))).toBe('bad_signature');
    expect(verified.size).toBe(1);
    for (const jti of ['a', 'b']) verifyPlaybackToken(await mint('ES256', { jti }), options({ verified }));
    expect(verified.get(token)).toBeUndefined();
    expect(verified.size).toBe(2);
  });
});

it('every refusal reason is exercised above and has a text', () => {
  expect(REFUSAL_REASONS).toHaveLength(14);
  for (const reason of REFUSAL_REASONS) expect(REFUSALS[reason].length).toBeGreaterThan(5);
});
