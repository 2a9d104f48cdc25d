import { describe, expect, it, vi } from 'vitest';
import { listenForToken, TOKEN_MESSAGE, tokenFromUrl } from './token-channel';

describe('the token of the page address', () => {
  it('is the token query parameter, or none', () => {
    expect(tokenFromUrl('?token=abc')).toBe('abc');
    expect(tokenFromUrl('?token=')).toBeNull();
    expect(tokenFromUrl('')).toBeNull();
  });
});

describe('the token a host page posts', () => {
  /** A framed window: its parent is another window. */
  function framed() {
    const parent = {} as Window;
    const target = new EventTarget() as EventTarget & { parent: Window };
    target.parent = parent;
    return { own: target as unknown as Window, parent };
  }
  // A plain event with the message's fields: jsdom's MessageEvent takes only real windows as its source.
  const post = (own: Window, data: unknown, source: unknown) =>
    own.dispatchEvent(Object.assign(new Event('message'), { data, source }));

  it('is taken from the parent window only, in its own message shape', () => {
    const { own, parent } = framed();
    const heard = vi.fn();
    const stop = listenForToken(own, heard);
    post(own, { type: TOKEN_MESSAGE, token: 'from-another-frame' }, {});
    post(own, { type: 'other', token: 'x' }, parent);
    post(own, { type: TOKEN_MESSAGE, token: 42 }, parent);
    post(own, 'streamcloud:token', parent);
    expect(heard).not.toHaveBeenCalled();
    post(own, { type: TOKEN_MESSAGE, token: 'from-the-host' }, parent);
    expect(heard).toHaveBeenCalledWith('from-the-host');
    stop();
    post(own, { type: TOKEN_MESSAGE, token: 'late' }, parent);
    expect(heard).toHaveBeenCalledTimes(1);
  });
});
