import { randomUUID } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm, stat, utimes } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { NodeFallback } from '@streamcloud/contract';
import { addressPolicy, createGuardedFetch, guardedAgents } from '@streamcloud/net-guard';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makePng } from '../../../../api/test/images.js';
import { type LocalS3Server, putObject, startLocalS3 } from '../../../test/s3.js';
import { prepareSource, type SourceTools, sweepSources } from './sources.js';

/** A storage object's kept copy is revalidated by its ETag: downloaded again only when it changed. */
let s3: LocalS3Server;
let tools: SourceTools;

beforeAll(async () => {
  s3 = await startLocalS3(['media']);
  // The test's S3 server is on loopback, as a self-hosted MinIO on a private network would be.
  const policy = addressPolicy({ allowPrivate: true });
  const agents = guardedAgents(policy);
  tools = {
    ffprobe: 'ffprobe',
    fetch: createGuardedFetch(agents),
    agents,
    policy,
    dir: await mkdtemp(join(tmpdir(), 'streamcloud-fallback-sources-')),
  };
});

afterAll(async () => {
  await s3?.close();
  if (tools) await rm(tools.dir, { recursive: true, force: true });
});

const slateOf = (key: string): NodeFallback => ({
  id: randomUUID(),
  streamId: randomUUID(),
  type: 'Slate',
  label: null,
  state: 'Pending',
  message: null,
  settings: { resources: [{ type: 'STORAGE', data: `${randomUUID()}/${key}` }] },
  createdAt: new Date().toISOString(),
  updatedAt: new Date().toISOString(),
  storage: {
    type: 'AmazonS3Compatible',
    bucket: 'media',
    path: null,
    regionName: null,
    endpoint: s3.endpoint,
    ...s3.credentials,
  },
});

describe('storage-object fallback sources', () => {
  it('are not downloaded again while the object is unchanged, and are when it changed', async () => {
    await putObject(s3, 'media', 'slates/cached.png', makePng(32, 24));
    const fallback = slateOf('slates/cached.png');
    const first = await prepareSource(fallback, tools);
    expect(first).toMatchObject({ ok: true, summary: 'PNG 32x24' });
    const file = first.ok && first.source.kind === 'image' ? first.source.file : '';
    const fetched = await stat(file);

    // The next live session: the object answers 304 to its ETag and the kept copy is used as it is.
    const again = await prepareSource(fallback, tools);
    expect(again).toEqual(first);
    const kept = await stat(file);
    expect({ ino: kept.ino, mtimeMs: kept.mtimeMs }).toEqual({ ino: fetched.ino, mtimeMs: fetched.mtimeMs });

    // The owner replaced the object: its new bytes are fetched.
    const replaced = makePng(64, 48, { rgb: [20, 200, 20] });
    await putObject(s3, 'media', 'slates/cached.png', replaced);
    const changed = await prepareSource(fallback, tools);
    expect(changed).toMatchObject({ ok: true, summary: 'PNG 64x48' });
    expect(await readFile(file)).toEqual(replaced);
  });

  it('fetches another object afresh when the fallback now names it', async () => {
    await putObject(s3, 'media', 'slates/one.png', makePng(16, 16));
    await putObject(s3, 'media', 'slates/two.png', makePng(48, 32));
    const fallback = slateOf('slates/one.png');
    expect(await prepareSource(fallback, tools)).toMatchObject({ ok: true, summary: 'PNG 16x16' });
    const other = { ...fallback, settings: { resources: [{ type: 'STORAGE' as const, data: `x/slates/two.png` }] } };
    expect(await prepareSource(other, tools)).toMatchObject({ ok: true, summary: 'PNG 48x32' });
  });
});

describe('kept copies that nothing uses', () => {
  const filesOf = async (fallbackId: string) =>
    (await readdir(tools.dir)).filter((name) => name.startsWith(`${fallbackId}.`)).sort();
  const prepared = async (key: string) => {
    await putObject(s3, 'media', key, makePng(16, 16));
    const fallback = slateOf(key);
    expect(await prepareSource(fallback, tools)).toMatchObject({ ok: true });
    return fallback;
  };
  const HOUR = 3_600_000;

  it('are swept once unused for the idle time or abandoned, never while in use; a revalidation counts as a use', async () => {
    const fallbacks = await Promise.all(
      ['idle', 'recent', 'in-use', 'abandoned'].map((name) => prepared(`slates/sweep-${name}.png`)),
    );
    const [idle, recent, inUse, abandoned] = fallbacks.map(({ id }) => id) as [string, string, string, string];
    const now = Date.now();
    const twoHoursAgo = new Date(now - 2 * HOUR);
    for (const id of [idle, inUse, abandoned])
      for (const name of await filesOf(id)) await utimes(join(tools.dir, name), twoHoursAgo, twoHoursAgo);
    expect(await filesOf(idle)).toEqual([`${idle}.kept.json`, `${idle}.png`]);

    const removed = await sweepSources(
      tools.dir,
      (id) => id === inUse,
      (id) => id === abandoned,
      new Date(now - HOUR),
    );
    expect(removed.sort()).toEqual([idle, abandoned].sort());
    expect(await filesOf(idle)).toEqual([]);
    expect(await filesOf(abandoned)).toEqual([]);
    expect(await filesOf(inUse)).toHaveLength(2);
    expect(await filesOf(recent)).toHaveLength(2);

    // The in-use one's stream went live again: its 304 revalidation (the copy itself untouched) marks it used now.
    const copy = join(tools.dir, `${inUse}.png`);
    const before = await stat(copy);
    expect(await prepareSource(fallbacks[2] as NodeFallback, tools)).toMatchObject({ ok: true });
    expect((await stat(copy)).mtimeMs).toBe(before.mtimeMs);
    expect(
      await sweepSources(
        tools.dir,
        () => false,
        () => false,
        new Date(now - HOUR),
      ),
    ).toEqual([]);
    expect(await filesOf(inUse)).toHaveLength(2);
  });
});
