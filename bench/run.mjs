// `npm run bench`: every benchmark, or only those named on the command line (e.g. `npm run bench -- whoami`).
import { readdirSync } from 'node:fs';

const wanted = process.argv.slice(2);
const files = readdirSync(new URL('.', import.meta.url))
  .filter((name) => name.endsWith('.bench.mjs'))
  .filter((name) => wanted.length === 0 || wanted.some((w) => name.startsWith(w)))
  .sort();
for (const file of files) {
  process.stdout.write(`\n=== ${file}\n`);
  const { default: bench } = await import(`./${file}`);
  await bench();
}
