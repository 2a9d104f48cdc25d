import { randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { NodeFallback } from '@streamcloud/contract';
import { addressPolicy, createGuardedFetch, guardedAgents } from '@streamcloud/net-guard';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makePng } from '../../../../api/test/images.js';
import { type LocalS3Server, putObject, startLocalS3 } from '../../../test/s3.js';
import { prepareSource, type SourceTools } from './sources.js';

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
