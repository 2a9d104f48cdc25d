import { createWriteStream } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { isIP } from 'node:net';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  base64ToBytes,
  checkImage,
  dataUriPayload,
  type Fallback,
  IMAGE_TYPE_MESSAGE,
  SLATE_IMAGE_LIMITS,
} from '@streamcloud/contract';
import { type AddressPolicy, BlockedAddressError, type GuardedFetch, guardedLookup } from '@streamcloud/net-guard';
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

class SourceError extends Error {}

/**
 * Fetches and checks a fallback's source so it can take over at once: a slate's image (data URI, or an
 * http(s) URL fetched through the guarded agent) must be a PNG or JPEG within the slate's limits; a
 * video is fetched and must have a video track; a live input must answer a probe with a video track.
 * Answers why not in the words the dashboard shows ("404 from <url>", "not an image", "no video track").
 */
export async function prepareSource(fallback: Fallback, tools: SourceTools): Promise<Prepared> {
  try {
    const resource = fallback.settings.resources[0];
    if (!resource) throw new SourceError('no source');
    if (resource.type === 'STORAGE')
      throw new SourceError('storage objects cannot be played by this node: give the object a URL');
    await mkdir(tools.dir, { recursive: true });
    if (fallback.type === 'Slate') {
      const bytes =
        resource.type === 'DATA_URI' ? dataUriBytes(resource.data) : await fetchBytes(resource.data, tools.fetch);
      const checked = checkImage(bytes, SLATE_IMAGE_LIMITS);
      if (!checked.ok) throw new SourceError(checked.message === IMAGE_TYPE_MESSAGE ? 'not an image' : checked.message);
      const file = join(tools.dir, `${fallback.id}.${checked.image.kind === 'png' ? 'png' : 'jpg'}`);
      await writeFile(file, bytes);
      return {
        ok: true,
        source: { kind: 'image', file },
        summary: `${checked.image.kind.toUpperCase()} ${checked.image.width}x${checked.image.height}`,
      };
    }
    if (fallback.type === 'Video') {
      const file = join(tools.dir, `${fallback.id}.video`);
      await fetchFile(resource.data, file, tools.fetch);
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
  await Promise.all(
    ['png', 'jpg', 'video'].map((extension) => rm(join(dir, `${fallbackId}.${extension}`), { force: true })),
  );
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

/** A slate image: at most the slate's size limit is read. */
async function fetchBytes(url: string, fetch: GuardedFetch): Promise<Uint8Array> {
  const response = await get(url, fetch);
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of response.body ?? []) {
    size += chunk.length;
    if (size > SLATE_IMAGE_LIMITS.maxBytes) {
      await response.body?.cancel();
      throw new SourceError(SLATE_IMAGE_LIMITS.messages.size);
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

async function fetchFile(url: string, file: string, fetch: GuardedFetch): Promise<void> {
  const response = await get(url, fetch);
  const declared = Number(response.headers.get('content-length'));
  if (declared > VIDEO_MAX_BYTES) {
    await response.body?.cancel();
    throw new SourceError(`the video is larger than ${VIDEO_MAX_BYTES / 1e6} MB`);
  }
  let size = 0;
  const body = Readable.fromWeb(response.body as import('node:stream/web').ReadableStream<Uint8Array>);
  body.on('data', (chunk: Buffer) => {
    size += chunk.length;
    if (size > VIDEO_MAX_BYTES) body.destroy(new SourceError(`the video is larger than ${VIDEO_MAX_BYTES / 1e6} MB`));
  });
  try {
    await pipeline(body, createWriteStream(file));
  } catch (error) {
    await rm(file, { force: true });
    if (error instanceof SourceError) throw error;
    throw new SourceError(`${url} could not be read: ${reachFailure(error)}`);
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
