import { describe, expect, it } from 'vitest';
import { base32Decode, base32Encode, hotp, matchingStep, type TotpAlgorithm, totp } from './totp.js';

describe('base32 (RFC 4648 section 10 test vectors)', () => {
  const vectors: Array<[string, string]> = [
    ['', ''],
    ['f', 'MY======'],
    ['fo', 'MZXQ===='],
    ['foo', 'MZXW6==='],
    ['foob', 'MZXW6YQ='],
    ['fooba', 'MZXW6YTB'],
    ['foobar', 'MZXW6YTBOI======'],
  ];
  it.each(vectors)('encodes %j as %j and reads it back', (text, encoded) => {
    expect(base32Encode(Buffer.from(text))).toBe(encoded);
    expect(base32Decode(encoded)?.toString()).toBe(text);
  });

  it('leaves the padding out on request, and reads lower case, spaces and no padding', () => {
    expect(base32Encode(Buffer.from('foobar'), false)).toBe('MZXW6YTBOI');
    expect(base32Decode('mzxw 6ytb oi')?.toString()).toBe('foobar');
  });

  it('refuses characters outside the alphabet', () => {
    expect(base32Decode('MZXW1')).toBeNull();
    expect(base32Decode('MZ!W')).toBeNull();
  });
});

describe('TOTP (RFC 6238 appendix B test vectors)', () => {
  // The RFC's seeds: the ASCII digits "1234567890" repeated to the hash's key length.
  const seed = (length: number) => Buffer.from('1234567890'.repeat(7).slice(0, length));
  const seeds: Record<TotpAlgorithm, Buffer> = { sha1: seed(20), sha256: seed(32), sha512: seed(64) };
  const vectors: Array<[number, string, TotpAlgorithm]> = [
    [59, '94287082', 'sha1'],
    [59, '46119246', 'sha256'],
    [59, '90693936', 'sha512'],
    [1111111109, '07081804', 'sha1'],
    [1111111109, '68084774', 'sha256'],
    [1111111109, '25091201', 'sha512'],
    [1111111111, '14050471', 'sha1'],
    [1111111111, '67062674', 'sha256'],
    [1111111111, '99943326', 'sha512'],
    [1234567890, '89005924', 'sha1'],
    [1234567890, '91819424', 'sha256'],
    [1234567890, '93441116', 'sha512'],
    [2000000000, '69279037', 'sha1'],
    [2000000000, '90698825', 'sha256'],
    [2000000000, '38618901', 'sha512'],
    [20000000000, '65353130', 'sha1'],
    [20000000000, '77737706', 'sha256'],
    [20000000000, '47863826', 'sha512'],
  ];
  it.each(vectors)('at %i s answers %s (%s)', (seconds, code, algorithm) => {
    expect(totp(seeds[algorithm], new Date(seconds * 1000), { digits: 8, algorithm })).toBe(code);
  });

  it('answers 6 digits by default: the last 6 of the 8-digit code (RFC 4226 truncation)', () => {
    expect(totp(seeds.sha1, new Date(59_000))).toBe('287082');
    // RFC 4226 appendix D, HOTP of its seed at counters 0 and 9.
    expect(hotp(seeds.sha1, 0)).toBe('755224');
    expect(hotp(seeds.sha1, 9)).toBe('520489');
  });

  it('matches the current step and one either side, and nothing further', () => {
    const at = new Date(1_234_567_890_000);
    const step = Math.floor(1_234_567_890 / 30);
    const codeAt = (offset: number) => hotp(seeds.sha1, step + offset);
    expect(matchingStep(seeds.sha1, codeAt(0), at)).toBe(step);
    expect(matchingStep(seeds.sha1, codeAt(-1), at)).toBe(step - 1);
    expect(matchingStep(seeds.sha1, codeAt(1), at)).toBe(step + 1);
    expect(matchingStep(seeds.sha1, codeAt(2), at)).toBeNull();
    expect(matchingStep(seeds.sha1, codeAt(-2), at)).toBeNull();
    expect(matchingStep(seeds.sha1, '12345', at)).toBeNull();
  });
});
