import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { generateSigningSecret, sign, signedHeaders } from './signature.js';

describe('Standard Webhooks signatures', () => {
  it("match the reference implementation's fixed vector", () => {
    // The vector of the standard's own test suites (libraries/javascript and libraries/python).
    expect(
      sign(
        'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
        'msg_p5jXN8AQM9LWM0D4loKWxJek',
        1614265330,
        '{"test": 2432232314}',
      ),
    ).toBe('v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=');
  });

  it('verify with the reference library, with one signature per secret while a rotated one still signs', () => {
    const current = generateSigningSecret();
    const previous = generateSigningSecret();
    const body = JSON.stringify({ type: 'webhook.test', id: 'e1', occurredAt: new Date().toISOString(), data: {} });
    const headers = signedHeaders([current, previous], 'e1', new Date(), body);
    expect(headers['webhook-id']).toBe('e1');
    expect(headers['webhook-timestamp']).toMatch(/^\d{10}$/);
    expect(headers['webhook-signature'].split(' ')).toHaveLength(2);
    for (const secret of [current, previous])
      expect(new Webhook(secret).verify(body, headers)).toMatchObject({ id: 'e1' });
    expect(() => new Webhook(generateSigningSecret()).verify(body, headers)).toThrow('No matching signature found');
    expect(() => new Webhook(current).verify(`${body} `, headers)).toThrow('No matching signature found');
  });

  it('secrets are whsec_ and 32 random bytes', () => {
    const secrets = new Set(Array.from({ length: 20 }, generateSigningSecret));
    expect(secrets.size).toBe(20);
    for (const secret of secrets) expect(Buffer.from(secret.slice('whsec_'.length), 'base64')).toHaveLength(32);
  });
});
