import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { firstScreenChunks } from './first-screen-chunks.ts';

const source = (path: string) => resolve(import.meta.dirname, '../src', path);

/** A module graph as rolldown's chunking context shows it: each module's static imports. */
function graph(imports: Record<string, string[]>) {
  const modules = new Map(Object.entries(imports).map(([id, importedIds]) => [id, { importedIds }]));
  return { getModuleInfo: (id: string) => modules.get(id) ?? null } as unknown as Parameters<
    ReturnType<typeof firstScreenChunks>
  >[1];
}

describe('firstScreenChunks', () => {
  const entry = source('main.tsx');
  const layout = source('app/layout/app-layout.tsx');
  const list = source('app/routes/streams.tsx');
  const login = source('app/routes/login.tsx');
  const ctx = graph({
    [entry]: ['react-query', 'api-client'],
    [layout]: ['react-query', 'navbar', 'icon'],
    [list]: ['zod', 'icon'],
    [login]: ['form', 'icon', 'api-client'],
    icon: ['svg'],
  });
  const name = firstScreenChunks();

  it("puts what only the signed-in first screen needs in its chunk, the sign-in page's in its own", () => {
    for (const id of [layout, list, 'navbar', 'zod']) expect(name(id, ctx)).toBe('first-screen');
    for (const id of [login, 'form']) expect(name(id, ctx)).toBe('sign-in');
  });

  it('shares what both need, dependencies included', () => {
    expect(name('icon', ctx)).toBe('first-screens-shared');
    expect(name('svg', ctx)).toBe('first-screens-shared');
  });

  it("leaves the entry's modules and any other screen's to the entry and to automatic chunking", () => {
    for (const id of [entry, 'react-query', 'api-client']) expect(name(id, ctx)).toBeNull();
    expect(name(source('features/nodes/components/nodes-screen.tsx'), ctx)).toBeNull();
  });
});
