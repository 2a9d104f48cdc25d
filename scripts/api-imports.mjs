#!/usr/bin/env node
// Usage: node scripts/api-imports.mjs [apps/api/src] [-v]  (docs/conventions.md, API: the layers)
// Import graph of apps/api/src (tests excluded): circles (strongly connected components) and imports that
// point back up the layers (routes -> services -> repositories -> db -> lib, never back).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

// The folder is the first argument that is not a flag (`-v` alone reads apps/api/src).
const root = resolve(process.argv.slice(2).find((arg) => !arg.startsWith('-')) ?? 'apps/api/src');
const verbose = process.argv.includes('-v');
const files = [];
(function walk(dir) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) walk(path);
    else if (/\.ts$/.test(name) && !/\.test\.ts$|\.d\.ts$/.test(name)) files.push(path);
  }
})(root);
const rel = (p) => relative(root, p);
const edges = new Map();
for (const file of files) {
  const text = readFileSync(file, 'utf8');
  const targets = new Set();
  for (const m of text.matchAll(
    /^\s*(?:import|export)\b[^'";]*?from\s+['"](\.[^'"]+)['"]|^\s*import\s+['"](\.[^'"]+)['"]/gms,
  )) {
    const spec = m[1] ?? m[2];
    const target = resolve(dirname(file), spec.replace(/\.js$/, '.ts'));
    if (files.includes(target)) targets.add(target);
    else if (files.includes(join(target, 'index.ts'))) targets.add(join(target, 'index.ts'));
  }
  edges.set(file, [...targets]);
}
// Layers: the composition root (app, server, modules' manifests) > routes and plugins > services (and a
// module's other files) > repositories and table types > db > lib.
function layer(file) {
  const r = rel(file);
  if (/^(app|server|config|local-media-node)\.ts$/.test(r)) return [6, 'root'];
  if (/\.module\.ts$|^modules\/module\.ts$|^modules\/[^/]+\/manifest\.ts$/.test(r)) return [5, 'module'];
  if (/\.routes\.ts$|^plugins\//.test(r)) return [4, 'routes'];
  if (/\.repository\.ts$|\.table\.ts$/.test(r)) return [2, 'repository'];
  if (/^db\//.test(r)) return [1, 'db'];
  if (/^lib\//.test(r)) return [0, 'lib'];
  return [3, 'service'];
}
// Tarjan's strongly connected components.
let index = 0;
const idx = new Map(),
  low = new Map(),
  stack = [],
  on = new Set(),
  sccs = [];
function strong(v) {
  idx.set(v, index);
  low.set(v, index);
  index++;
  stack.push(v);
  on.add(v);
  for (const w of edges.get(v)) {
    if (!idx.has(w)) {
      strong(w);
      low.set(v, Math.min(low.get(v), low.get(w)));
    } else if (on.has(w)) low.set(v, Math.min(low.get(v), idx.get(w)));
  }
  if (low.get(v) === idx.get(v)) {
    const c = [];
    let w;
    do {
      w = stack.pop();
      on.delete(w);
      c.push(w);
    } while (w !== v);
    if (c.length > 1) sccs.push(c);
  }
}
for (const f of files) if (!idx.has(f)) strong(f);
const back = [];
for (const [from, tos] of edges) for (const to of tos) if (layer(to)[0] > layer(from)[0]) back.push([from, to]);
console.log(`files ${files.length}, imports ${[...edges.values()].reduce((n, t) => n + t.length, 0)}`);
console.log(`import circles: ${sccs.length} (files in them: ${sccs.reduce((n, c) => n + c.length, 0)})`);
for (const c of sccs) console.log(`  circle of ${c.length}: ${c.map(rel).sort().join(', ')}`);
console.log(`imports pointing back up the layers: ${back.length}`);
if (verbose) for (const [f, t] of back) console.log(`  ${rel(f)} (${layer(f)[1]}) -> ${rel(t)} (${layer(t)[1]})`);
