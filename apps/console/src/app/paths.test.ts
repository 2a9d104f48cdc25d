import { describe, expect, it } from 'vitest';
import { loginPath, safeRedirect } from './paths';

describe('paths', () => {
  it('puts the return target into the login path', () => {
    expect(loginPath('/streams/view/1?x=2')).toBe('/login?redirect=%2Fstreams%2Fview%2F1%3Fx%3D2');
  });

  it.each([
    [null, '/'],
    ['', '/'],
    ['streams', '/'],
    ['//evil.example.com', '/'],
    ['https://evil.example.com', '/'],
    ['/login?redirect=%2F', '/'],
    ['/metrics', '/metrics'],
    ['/streams?refresh=true', '/streams?refresh=true'],
  ])('follows %s as %s after login', (target, expected) => {
    expect(safeRedirect(target)).toBe(expected);
  });
});
