import { describe, expect, it } from 'vitest';
import { hashPassword, OWASP_SCRYPT, verifyPassword } from './password.js';

describe('password hashing', () => {
  it("uses OWASP's scrypt parameters by default", async () => {
    expect(OWASP_SCRYPT).toEqual({ N: 131072, r: 8, p: 1 });
    const hash = await hashPassword('s3cret!');
    expect(hash).toMatch(/^scrypt\$131072\$8\$1\$[A-Za-z0-9+/=]{24}\$[A-Za-z0-9+/=]{44}$/);
    expect(await verifyPassword('s3cret!', hash)).toBe(true);
    expect(await verifyPassword('s3cret?', hash)).toBe(false);
  });

  it('salts every hash', async () => {
    const cost = { N: 1024, r: 8, p: 1 };
    expect(await hashPassword('same', cost)).not.toBe(await hashPassword('same', cost));
  });

  it('refuses a malformed stored hash', async () => {
    expect(await verifyPassword('x', 'plain-text')).toBe(false);
    expect(await verifyPassword('x', 'scrypt$1024$8$1$$')).toBe(false);
  });
});
