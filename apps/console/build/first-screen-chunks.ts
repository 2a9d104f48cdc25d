/// <reference types="node" />
import { resolve } from 'node:path';
import type { Rolldown } from 'vite';

type ChunkingContext = Parameters<Rolldown.CodeSplittingNameFunction>[1];

const source = (path: string) => resolve(import.meta.dirname, '../src', path);

/** What index.html loads: the entry and everything it imports statically. */
const ENTRY = source('main.tsx');

/**
 * The likely first screens and what each starts with. Signed in, it is the stream list (the home page): the
 * signed-in frame, the list and the reads started with them (app/prefetch-data.ts). Signed out, the sign-in
 * page.
 */
const FIRST_SCREENS = {
  'first-screen': [
    'app/layout/app-layout.tsx',
    'app/routes/streams.tsx',
    'data/streams/list.ts',
    'data/accounts/get-whoami.ts',
  ],
  'sign-in': ['app/routes/login.tsx'],
} as const;

/** The modules `roots` import statically, directly or not (themselves included). */
function staticClosure(ctx: ChunkingContext, roots: readonly string[]): Set<string> {
  const seen = new Set<string>();
  const pending = [...roots];
  for (let id = pending.pop(); id !== undefined; id = pending.pop()) {
    if (seen.has(id)) continue;
    seen.add(id);
    pending.push(...(ctx.getModuleInfo(id)?.importedIds ?? []));
  }
  return seen;
}

/**
 * A chunk group `name` (rolldown's codeSplitting): every module a likely first screen needs beyond the
 * entry goes into that screen's chunk, and what both need into a shared one. Left to automatic chunking,
 * the stream list came in 51 files of a few hundred bytes each: over HTTP/1.1 on a phone, one round trip
 * after another (issue 21). Other screens import what they share with these chunks from them; their own code
 * still comes on demand. Modules of the entry's graph stay in the entry (moving one out would make
 * index.html load its whole group).
 */
export function firstScreenChunks() {
  let graph: { ctx: ChunkingContext; entry: Set<string>; screens: [string, Set<string>][] } | undefined;
  return (id: string, ctx: ChunkingContext): string | null => {
    if (graph?.ctx !== ctx) {
      graph = {
        ctx,
        entry: staticClosure(ctx, [ENTRY]),
        screens: Object.entries(FIRST_SCREENS).map(([name, roots]) => [name, staticClosure(ctx, roots.map(source))]),
      };
    }
    if (graph.entry.has(id)) return null;
    const needing = graph.screens.filter(([, modules]) => modules.has(id)).map(([name]) => name);
    if (needing.length === 0) return null;
    return needing.length === 1 ? (needing[0] ?? null) : 'first-screens-shared';
  };
}
