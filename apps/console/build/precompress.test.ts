import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { precompressDirectory } from './precompress';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'precompress-'));
  await mkdir(join(dir, 'assets'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

const script = `export function hello(name) { return 'Hello, ' + name; }\n`.repeat(200);

describe('precompressDirectory', () => {
  it('writes brotli and gzip siblings that decode to the very bytes of the file', async () => {
    await writeFile(join(dir, 'assets/index-abc.js'), script);
    await writeFile(join(dir, 'index.html'), `<!doctype html><title>x</title>${'<p>text</p>'.repeat(50)}`);
    await precompressDirectory(dir);
    for (const file of ['assets/index-abc.js', 'index.html']) {
      const original = await readFile(join(dir, file));
      expect(brotliDecompressSync(await readFile(join(dir, `${file}.br`)))).toEqual(original);
      expect(gunzipSync(await readFile(join(dir, `${file}.gz`)))).toEqual(original);
    }
  });

  it('leaves binary files, source maps and files compression would not shrink alone', async () => {
    await writeFile(join(dir, 'assets/index-abc.js.map'), script);
    await writeFile(join(dir, 'assets/logo.png'), Buffer.alloc(4096, 7));
    await writeFile(join(dir, 'tiny.json'), '{}');
    const results = await precompressDirectory(dir);
    expect(results).toEqual([{ file: join(dir, 'tiny.json'), raw: 2 }]);
    expect((await readdir(dir)).sort()).toEqual(['assets', 'tiny.json']);
    expect((await readdir(join(dir, 'assets'))).sort()).toEqual(['index-abc.js.map', 'logo.png']);
  });
});
