import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineRoute } from './routes.js';
import { findTextFaults, TEXT_MESSAGES, textFault } from './text.js';

describe('textFault', () => {
  it('accepts any well-formed text, astral characters included', () => {
    for (const text of ['', 'plain', 'é ü ß', '直播', '🎥 stream', '\u{10FFFF}', 'tab\tand\nnew line']) {
      expect(textFault(text), JSON.stringify(text)).toBeNull();
    }
  });

  it('refuses NUL anywhere and unpaired surrogates of either half', () => {
    expect(textFault('a\u0000b')).toBe(TEXT_MESSAGES.nul);
    expect(textFault('\u0000')).toBe(TEXT_MESSAGES.nul);
    for (const text of ['\ud800', 'a\ud800b', '\udc00', 'x\udfff', '\udc00\ud800', '🎥'.slice(0, 1)]) {
      expect(textFault(text), JSON.stringify(text)).toBe(TEXT_MESSAGES.surrogate);
    }
  });
});

describe('findTextFaults', () => {
  it('names the path of every bad string, in keys too', () => {
    const faults = findTextFaults({ a: 'ok', b: ['fine', 'bad\u0000'], c: { 'k\ud800': 1 } });
    expect(faults).toHaveLength(2);
    expect(faults).toContainEqual({ path: ['b', 1], message: TEXT_MESSAGES.nul });
    expect(faults).toContainEqual({ path: ['c', 'k\ud800'], message: TEXT_MESSAGES.surrogate });
  });

  it('walks a value nested far deeper than the stack would allow', () => {
    let deep: unknown = 'x\u0000';
    for (let i = 0; i < 200_000; i++) deep = [deep];
    expect(findTextFaults(deep)).toHaveLength(1);
  });
});

describe('defineRoute', () => {
  const route = defineRoute({
    method: 'POST',
    path: '/things/:id',
    summary: 'a route',
    tag: 'test',
    auth: 'user',
    params: z.strictObject({ id: z.string() }),
    query: z.strictObject({ q: z.string().optional() }),
    body: z.strictObject({ name: z.string().trim(), tags: z.array(z.string()).default([]) }),
    response: null,
  });
  const { params, query, body } = route as Required<typeof route>;

  it('refuses malformed text in params, query and body, naming the field', () => {
    expect(params.safeParse({ id: 'a\u0000' }).error?.issues).toEqual([
      expect.objectContaining({ path: ['id'], message: TEXT_MESSAGES.nul }),
    ]);
    expect(query.safeParse({ q: '\ud800' }).error?.issues).toEqual([
      expect.objectContaining({ path: ['q'], message: TEXT_MESSAGES.surrogate }),
    ]);
    expect(body.safeParse({ name: 'ok', tags: ['fine', 'no\u0000'] }).error?.issues).toEqual([
      expect.objectContaining({ path: ['tags', 1], message: TEXT_MESSAGES.nul }),
    ]);
  });

  it('leaves good input and the schema shapes as they were', () => {
    expect(body.parse({ name: ' 🎥 ' })).toEqual({ name: '🎥', tags: [] });
    expect(Object.keys(body.shape)).toEqual(['name', 'tags']);
  });
});
