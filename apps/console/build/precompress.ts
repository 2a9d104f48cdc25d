/// <reference types="node" />
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { Plugin } from 'vite';

/** What is worth compressing: text. Source maps are left out: only developer tools fetch them. */
const COMPRESSIBLE = /\.(html|js|mjs|css|svg|json|txt|webmanifest)$/;

const toBrotli = promisify(brotliCompress);
const toGzip = promisify(gzip);

export interface Precompressed {
  file: string;
  raw: number;
  /** Bytes of the .br and .gz siblings; undefined when compressing did not make the file smaller. */
  brotli?: number;
  gzip?: number;
}

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((entry) => entry.isFile()).map((entry) => join(entry.parentPath, entry.name));
}

/**
 * Writes `<file>.br` (brotli, best quality) and `<file>.gz` (gzip -9) beside every text file under `dir`,
 * each only when it is smaller than the file: the server sends whichever the browser accepts without
 * compressing anything per request.
 */
export async function precompressDirectory(dir: string): Promise<Precompressed[]> {
  const files = (await filesUnder(dir)).filter((file) => COMPRESSIBLE.test(file));
  return Promise.all(
    files.map(async (file) => {
      const bytes = await readFile(file);
      const [brotli, gzipped] = await Promise.all([
        toBrotli(bytes, {
          params: {
            [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
            [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
            [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
          },
        }),
        toGzip(bytes, { level: constants.Z_BEST_COMPRESSION }),
      ]);
      const result: Precompressed = { file, raw: bytes.length };
      if (brotli.length < bytes.length) {
        await writeFile(`${file}.br`, brotli);
        result.brotli = brotli.length;
      }
      if (gzipped.length < bytes.length) {
        await writeFile(`${file}.gz`, gzipped);
        result.gzip = gzipped.length;
      }
      return result;
    }),
  );
}

/** Vite plugin: precompresses the whole output once the build has written it (public files included). */
export function precompress(): Plugin {
  let outDir = 'dist';
  return {
    name: 'streamcloud:precompress',
    apply: 'build',
    configResolved(config) {
      outDir = resolve(config.root, config.build.outDir);
    },
    async closeBundle() {
      await precompressDirectory(outDir);
    },
  };
}
