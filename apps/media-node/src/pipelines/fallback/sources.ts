import { createWriteStream } from 'node:fs';
import { access, mkdir, readdir, readFile, rename, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { isIP } from 'node:net';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { GetObjectCommand } from '@aws-sdk/client-s3';
import {
  base64ToBytes,
  checkImage,
  dataUriPayload,
  type FallbackResource,
  IMAGE_TYPE_MESSAGE,
  type NodeFallback,
  SLATE_IMAGE_LIMITS,
  type UploadTarget,
} from '@streamcloud/contract';
import {
  type AddressPolicy,
  BlockedAddressError,
  type GuardedAgents,
  type GuardedFetch,
  guardedLookup,
} from '@streamcloud/net-guard';
import { createS3Client, describeFailure } from '@streamcloud/s3';
import { lastLine } from '../../child.js';
import { probeMedia } from '../../probe.js';

/** What a fallback plays once it is prepared: a still image, a file looped, or a live source pulled. */
export type FallbackSource =
  | { kind: 'image'; file: string }
  | { kind: 'video'; file: string; audio: boolean }
  | { kind: 'live'; url: string; audio: boolean };

export type Prepared = { ok: true; source: FallbackSource; summary: string } | { ok: false; reason: string };

export interface SourceTools {
  ffprobe: string;
  /** Outbound HTTP(S) through the guarded agent (ALLOW_PRIVATE_NETWORKS). */
  fetch: GuardedFetch;
  /** The same agents, for the owner's storages (S3). */
  agents: GuardedAgents;
  /** What a live input may connect to (the same policy). */
  policy: AddressPolicy;
  /** Where the fetched images and videos are kept (one file per fallback). */
  dir: string;
}

/** A slate or a video is fetched within this long; a live input answers a probe within this long. */
const FETCH_TIMEOUT_MS = 30_000;
const LIVE_PROBE_MS = 10_000;
/** The largest video file a fallback fetches (bytes). */
export const VIDEO_MAX_BYTES = 500_000_000;

interface SizeLimit {
  maxBytes: number;
  message: string;
}
const SLATE_LIMIT: SizeLimit = { maxBytes: SLATE_IMAGE_LIMITS.maxBytes, message: SLATE_IMAGE_LIMITS.messages.size };
const VIDEO_LIMIT: SizeLimit = {
  maxBytes: VIDEO_MAX_BYTES,
  message: `the video is larger than ${VIDEO_MAX_BYTES / 1e6} MB`,
};

class SourceError extends Error {}

/**
 * Fetches and checks a fallback's source so it can take over at once: a slate's image (data URI, an
 * http(s) URL fetched through the guarded agent, or an object of the owner's storage) must be a PNG or
 * JPEG within the slate's limits; a video (URL or storage object) is fetched and must have a video
 * track; a live input must answer a probe with a video track. What is fetched is kept under `tools.dir`
 * (one file per fallback). Answers why not in the words the dashboard shows ("404 from <url>", "not an
 * image", "no video track").
 */
export async function prepareSource(fallback: NodeFallback, tools: SourceTools): Promise<Prepared> {
  try {
    const resource = fallback.settings.resources[0];
    if (!resource) throw new SourceError('no source');
    await mkdir(tools.dir, { recursive: true });
    const download = join(tools.dir, `${fallback.id}.download`);
    if (fallback.type === 'Slate') {
      let fetched: Fetched = { path: download, etag: null };
      if (resource.type === 'DATA_URI') await writeFile(download, dataUriBytes(resource.data));
      else fetched = await fetchSource(fallback, download, SLATE_LIMIT, tools);
      const bytes = await readFile(fetched.path);
      const checked = checkImage(bytes, SLATE_IMAGE_LIMITS);
      if (!checked.ok) throw new SourceError(checked.message === IMAGE_TYPE_MESSAGE ? 'not an image' : checked.message);
      // ffmpeg's image reader goes by the file's extension.
      const file = join(tools.dir, `${fallback.id}.${checked.image.kind === 'png' ? 'png' : 'jpg'}`);
      await place(fallback, fetched, file, tools.dir);
      return {
        ok: true,
        source: { kind: 'image', file },
        summary: `${checked.image.kind.toUpperCase()} ${checked.image.width}x${checked.image.height}`,
      };
    }
    if (fallback.type === 'Video') {
      const file = join(tools.dir, `${fallback.id}.video`);
      await place(fallback, await fetchSource(fallback, download, VIDEO_LIMIT, tools), file, tools.dir);
      const tracks = await probeMedia(tools.ffprobe, file).catch(() => []);
      return describeMedia(tracks, (audio) => ({ kind: 'video', file, audio }));
    }
    await checkHost(resource.data, tools.policy);
    const tracks = await probeMedia(tools.ffprobe, resource.data, {
      inputArgs: ['-rw_timeout', String(LIVE_PROBE_MS * 1000)],
      timeoutMs: LIVE_PROBE_MS + 2000,
    }).catch((error: unknown) => {
      throw new SourceError(`${resource.data} cannot be played: ${lastLine(String(error)) || 'no answer'}`);
    });
    return describeMedia(tracks, (audio) => ({ kind: 'live', url: resource.data, audio }));
  } catch (error) {
    if (error instanceof SourceError) return { ok: false, reason: error.message };
    return { ok: false, reason: `the source could not be read: ${String(error)}` };
  }
}

/** Removes what a fallback fetched (it was deleted or changed). */
export async function forgetSource(dir: string, fallbackId: string): Promise<void> {
  await Promise.all(SOURCE_EXTENSIONS.map((extension) => rm(join(dir, `${fallbackId}.${extension}`), { force: true })));
}

/** The files a fallback's preparation leaves in the sources directory (`<fallback id>.<extension>`). */
const SOURCE_EXTENSIONS = ['png', 'jpg', 'video', 'download', 'kept.json'];

/** Marks a kept copy as used now (its stream ended, or it was revalidated): the sweep goes by this. */
export async function touchKept(dir: string, fallbackId: string): Promise<void> {
  const now = new Date();
  await utimes(keptPath(dir, fallbackId), now, now).catch(() => undefined);
}

/**
 * Removes what fallbacks fetched that nothing uses any more: of every fallback with files in `dir` but
 * those `inUse` names, the files of one that `abandoned` names (its stream deleted or moved to another
 * node), or last used before `idleBefore` (their newest change: placed, revalidated, or its stream's end),
 * which covers copies a node process before this one kept. Answers the fallback ids removed.
 */
export async function sweepSources(
  dir: string,
  inUse: (fallbackId: string) => boolean,
  abandoned: (fallbackId: string) => boolean,
  idleBefore: Date,
): Promise<string[]> {
  const names = await readdir(dir).catch(() => [] as string[]);
  const lastUse = new Map<string, number>();
  for (const name of names) {
    const dot = name.indexOf('.');
    if (dot <= 0 || !SOURCE_EXTENSIONS.includes(name.slice(dot + 1))) continue;
    const id = name.slice(0, dot);
    if (inUse(id)) continue;
    const changed = await stat(join(dir, name)).then(
      (file) => file.mtimeMs,
      () => 0,
    );
    lastUse.set(id, Math.max(lastUse.get(id) ?? 0, changed));
  }
  const removed: string[] = [];
  for (const [id, used] of lastUse) {
    // A preparation may have started since the listing: it is not swept from under it.
    if (inUse(id) || (!abandoned(id) && used >= idleBefore.getTime())) continue;
    await forgetSource(dir, id);
    removed.push(id);
  }
  return removed;
}

/**
 * Whether what a fallback fetched is kept when its stream ends: an object of the owner's storage, which
 * the next live session revalidates by its ETag instead of downloading again (`fetchSource`).
 */
export const keepsCopy = (fallback: NodeFallback) => fallback.settings.resources[0]?.type === 'STORAGE';

/** Where a source's bytes are: a fresh download to move into place, or the copy kept from before. */
interface Fetched {
  path: string;
  /** The storage object's ETag (null for other sources). */
  etag: string | null;
}

/** What is kept of a storage object between live sessions (`<fallback id>.kept.json`). */
interface KeptCopy {
  /** Which object it is (storage endpoint, bucket and key): another one is downloaded afresh. */
  object: string;
  etag: string;
  file: string;
}

const keptPath = (dir: string, fallbackId: string) => join(dir, `${fallbackId}.kept.json`);

/** The fallback's storage object as the node identifies it: endpoint, bucket and key (no credentials). */
const objectOf = (fallback: NodeFallback): string | null => {
  const { storage } = fallback;
  const resource = fallback.settings.resources[0];
  if (!storage || resource?.type !== 'STORAGE') return null;
  return JSON.stringify([storage.type, storage.endpoint, storage.regionName, storage.bucket, resource.data]);
};

async function readKept(dir: string, fallback: NodeFallback): Promise<KeptCopy | null> {
  try {
    const kept = JSON.parse(await readFile(keptPath(dir, fallback.id), 'utf8')) as KeptCopy;
    if (kept.object !== objectOf(fallback)) return null;
    await access(kept.file);
    return kept;
  } catch {
    return null;
  }
}

/**
 * Fetches a URL's or a storage object's bytes into `download`. A storage object whose copy is kept is
 * asked for only if its ETag changed (If-None-Match): unchanged, the kept copy is used as it is.
 */
async function fetchSource(
  fallback: NodeFallback,
  download: string,
  limit: SizeLimit,
  tools: SourceTools,
): Promise<Fetched> {
  const resource = fallback.settings.resources[0] as FallbackResource;
  if (resource.type !== 'STORAGE') {
    await saveSource(await getUrl(resource.data, tools.fetch), download, limit);
    return { path: download, etag: null };
  }
  const kept = await readKept(tools.dir, fallback);
  const object = await getObject(resource.data, fallback.storage, tools.agents, kept?.etag ?? null);
  if (object === 'unchanged' && kept) {
    await touchKept(tools.dir, fallback.id);
    return { path: kept.file, etag: kept.etag };
  }
  if (object === 'unchanged') throw new SourceError('the storage answered "not modified" for an object not kept');
  await saveSource(object, download, limit);
  return { path: download, etag: object.etag };
}

/** Moves what was fetched to `file` (where ffmpeg reads it) and keeps a storage object's ETag with it. */
async function place(fallback: NodeFallback, fetched: Fetched, file: string, dir: string): Promise<void> {
  if (fetched.path !== file) await rename(fetched.path, file);
  const object = objectOf(fallback);
  if (object && fetched.etag) {
    const kept: KeptCopy = { object, etag: fetched.etag, file };
    await writeFile(keptPath(dir, fallback.id), JSON.stringify(kept));
  } else {
    await rm(keptPath(dir, fallback.id), { force: true });
  }
}

function describeMedia(
  tracks: Awaited<ReturnType<typeof probeMedia>>,
  source: (audio: boolean) => FallbackSource,
): Prepared {
  const video = tracks.find((track) => track.type === 'Video');
  if (!video) throw new SourceError('no video track');
  const audio = tracks.some((track) => track.type === 'Audio');
  const size = video.width && video.height ? ` ${video.width}x${video.height}` : '';
  return { ok: true, source: source(audio), summary: `${video.codec}${size}${audio ? ' with audio' : ''}` };
}

function dataUriBytes(uri: string): Uint8Array {
  const payload = dataUriPayload(uri);
  if (payload === null) throw new SourceError('not an image');
  return base64ToBytes(payload);
}

async function get(url: string, fetch: GuardedFetch): Promise<Response> {
  let response: Response;
  try {
    response = await fetch(url, { redirect: 'error', signal: AbortSignal.timeout(FETCH_TIMEOUT_MS) });
  } catch (error) {
    throw new SourceError(`${url} cannot be reached: ${reachFailure(error)}`);
  }
  if (response.status !== 200) {
    await response.body?.cancel();
    throw new SourceError(`${response.status} from ${url}`);
  }
  return response;
}

/** A source's bytes as they arrive, the size its server declares, and where it comes from (for messages). */
interface Download {
  body: Readable;
  declared: number | null;
  where: string;
}

/**
 * Saves a URL's or a storage object's bytes to `file`, at most the limit's bytes (a larger source is
 * refused as soon as it says or shows so); a partial file is removed.
 */
async function saveSource(source: Download, file: string, limit: SizeLimit): Promise<void> {
  const tooLarge = () => new SourceError(limit.message);
  if (source.declared !== null && source.declared > limit.maxBytes) {
    source.body.destroy();
    throw tooLarge();
  }
  let size = 0;
  source.body.on('data', (chunk: Buffer) => {
    size += chunk.length;
    if (size > limit.maxBytes) source.body.destroy(tooLarge());
  });
  try {
    await pipeline(source.body, createWriteStream(file));
  } catch (error) {
    await rm(file, { force: true });
    if (error instanceof SourceError) throw error;
    throw new SourceError(`${source.where} could not be read: ${reachFailure(error)}`);
  }
}

async function getUrl(url: string, fetch: GuardedFetch): Promise<Download> {
  const response = await get(url, fetch);
  const length = response.headers.get('content-length');
  return {
    body: Readable.fromWeb(response.body as import('node:stream/web').ReadableStream<Uint8Array>),
    declared: length === null ? null : Number(length),
    where: url,
  };
}

/**
 * An object of the stream owner's storage (`<storage id>/<object key>`, the key as it is in the bucket),
 * read with the credentials the control plane gave with the fallback, through the guarded agents; with
 * `etag`, 'unchanged' when the object still has it (304 Not Modified: no bytes are sent).
 */
async function getObject(
  reference: string,
  target: UploadTarget | null,
  agents: GuardedAgents,
  etag: string | null,
): Promise<(Download & { etag: string | null }) | 'unchanged'> {
  const slash = reference.indexOf('/');
  const storageId = reference.slice(0, slash);
  const key = reference.slice(slash + 1);
  if (!target)
    throw new SourceError(
      `storage ${storageId} cannot be used by the media node: it is deleted, or its credentials cannot be read`,
    );
  const client = createS3Client(target, { timeoutMs: FETCH_TIMEOUT_MS, maxAttempts: 3, agents });
  try {
    const answer = await client.send(
      new GetObjectCommand({ Bucket: target.bucket, Key: key, ...(etag ? { IfNoneMatch: etag } : {}) }),
    );
    const body = answer.Body as Readable;
    body.once('close', () => client.destroy());
    return {
      body,
      declared: answer.ContentLength ?? null,
      where: `"${key}" in bucket "${target.bucket}"`,
      etag: answer.ETag ?? null,
    };
  } catch (error) {
    client.destroy();
    if ((error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 304) return 'unchanged';
    if ((error as { name?: string }).name === 'NoSuchKey')
      throw new SourceError(`"${key}" not found in bucket "${target.bucket}"`);
    throw new SourceError(describeFailure(error, target, 'cleanup', key, FETCH_TIMEOUT_MS, 'the media node'));
  }
}

/** A live input's host must be one the node may reach (ffmpeg connects to it, not the guarded agent). */
async function checkHost(url: string, policy: AddressPolicy): Promise<void> {
  const host = new URL(url).hostname.replace(/^\[|\]$/g, '');
  const refused = () => new SourceError(`${host} cannot be reached from the media node (address not allowed)`);
  if (isIP(host)) {
    if (!policy.allows(host)) throw refused();
    return;
  }
  await new Promise<void>((resolve, reject) =>
    guardedLookup(policy)(host, {}, (error) => {
      if (!error) resolve();
      else if (error instanceof BlockedAddressError) reject(refused());
      else reject(new SourceError(`the host ${host} was not found (DNS)`));
    }),
  );
}

function reachFailure(error: unknown): string {
  if (error instanceof BlockedAddressError) return 'the address is not allowed';
  const code =
    (error as { code?: unknown; cause?: { code?: unknown } }).code ??
    (error as { cause?: { code?: unknown } }).cause?.code;
  if (typeof code === 'string') return code;
  return error instanceof Error ? error.message : String(error);
}
