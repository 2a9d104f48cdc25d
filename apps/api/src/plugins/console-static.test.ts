import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerConsole } from './console-static.js';

const INDEX = `<!doctype html><html><head><title>Streamcloud</title></head><body>${'<div></div>'.repeat(40)}</body></html>`;
const SCRIPT = `export const greet = (name) => 'Hello, ' + name;\n`.repeat(300);
const MAP = JSON.stringify({ version: 3, mappings: 'AAAA;'.repeat(500) });

let dir: string;
let app: FastifyInstance;

/** Writes a file and, like the console's build, its brotli and gzip copies. */
async function writePrecompressed(path: string, text: string) {
  await writeFile(path, text);
  await writeFile(`${path}.br`, brotliCompressSync(text));
  await writeFile(`${path}.gz`, gzipSync(text));
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'console-static-'));
  await mkdir(join(dir, 'assets'));
  await writePrecompressed(join(dir, 'index.html'), INDEX);
  await writePrecompressed(join(dir, 'assets/index-abc123.js'), SCRIPT);
  await writeFile(join(dir, 'assets/index-abc123.js.map'), MAP);
  app = Fastify();
  await registerConsole(app, dir, { apiBase: '/api/v1', storagePrefix: '' });
  await app.ready();
});
afterAll(async () => {
  await app.close();
  await rm(dir, { recursive: true, force: true });
});

async function get(url: string, acceptEncoding?: string) {
  const response = await app.inject({
    method: 'GET',
    url,
    headers: acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding },
  });
  const encoding = response.headers['content-encoding'];
  const body = response.rawPayload;
  const decoded = encoding === 'br' ? brotliDecompressSync(body) : encoding === 'gzip' ? gunzipSync(body) : body;
  return { response, encoding, decoded: decoded.toString('utf8') };
}

describe('console assets: precompressed and negotiated', () => {
  it.each([
    ['gzip, deflate, br, zstd', 'br'],
    ['br', 'br'],
    ['gzip', 'gzip'],
    ['br;q=0, gzip', 'gzip'],
    ['gzip;q=1, br;q=0.5', 'gzip'],
    ['*', 'gzip'],
    ['identity', undefined],
    [undefined, undefined],
  ])('Accept-Encoding %s: sends %s, the same bytes once decoded', async (acceptEncoding, expected) => {
    const { response, encoding, decoded } = await get('/assets/index-abc123.js', acceptEncoding);
    expect(response.statusCode).toBe(200);
    expect(encoding).toBe(expected);
    expect(decoded).toBe(SCRIPT);
    expect(response.headers['content-type']).toMatch(/^text\/javascript|^application\/javascript/);
    expect(response.headers.vary).toMatch(/accept-encoding/i);
    expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    if (expected) expect(response.rawPayload.length).toBeLessThan(SCRIPT.length);
  });

  it('serves index.html compressed at / and by name, revalidated on every load (never immutable)', async () => {
    for (const url of ['/', '/index.html']) {
      for (const [acceptEncoding, expected] of [
        ['br, gzip', 'br'],
        ['gzip', 'gzip'],
        ['', undefined],
      ] as const) {
        const { response, encoding, decoded } = await get(url, acceptEncoding);
        expect(response.statusCode).toBe(200);
        expect(encoding).toBe(expected);
        expect(decoded).toBe(INDEX);
        expect(response.headers['content-type']).toMatch(/^text\/html/);
        expect(response.headers['cache-control']).toBe('no-cache');
        expect(response.headers.vary).toMatch(/accept-encoding/i);
      }
    }
  });

  it('sends a file that has no compressed copy as it is', async () => {
    const { response, encoding, decoded } = await get('/assets/index-abc123.js.map', 'br, gzip');
    expect(response.statusCode).toBe(200);
    expect(encoding).toBeUndefined();
    expect(decoded).toBe(MAP);
    expect(response.headers.vary).toMatch(/accept-encoding/i);
  });

  it('answers 404 for a missing asset, whatever the encoding', async () => {
    for (const acceptEncoding of ['br, gzip', undefined]) {
      const { response } = await get('/assets/missing-000.js', acceptEncoding);
      expect(response.statusCode).toBe(404);
    }
  });

  it('keeps the runtime configuration uncached', async () => {
    const { response, decoded } = await get('/config.json', 'br, gzip');
    expect(response.statusCode).toBe(200);
    expect(JSON.parse(decoded)).toEqual({ apiBase: '/api/v1', storagePrefix: '' });
    expect(response.headers['cache-control']).toBe('no-cache');
  });
});

describe('the embeddable player page', () => {
  it('is play.html at /play/{uuid}, revalidated, and a 404 page for anything else', async () => {
    await writePrecompressed(join(dir, 'play.html'), '<!doctype html><title>player</title><main id="player"></main>');
    const player = Fastify();
    await registerConsole(player, dir, { apiBase: '/api/v1', storagePrefix: '' });
    try {
      const page = await player.inject({ method: 'GET', url: '/play/4b0c5a52-5a0e-4c54-9b8a-1f9d2f0c0a11?token=x' });
      expect(page.statusCode).toBe(200);
      expect(page.body).toContain('id="player"');
      expect(page.headers['cache-control']).toBe('no-cache');
      for (const url of ['/play/not-a-uuid', '/play/..%2Findex.html', '/play/%00']) {
        const missing = await player.inject({ method: 'GET', url });
        expect(missing.statusCode, url).toBe(404);
        expect(missing.headers['content-type']).toMatch(/^text\/html/);
      }
    } finally {
      await player.close();
    }
  });
});
