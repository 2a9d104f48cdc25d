import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWebhookReceiver, type WebhookReceiver } from '../../api/test/webhook-receiver.js';
import { ffmpeg, freePort, type Push, pixelAt, pushTestPattern, runTool, sleep, waitFor } from './harness.js';
import { createStorage } from './recordings.js';
import { type LocalS3Server, putObject, startLocalS3 } from './s3.js';
import { STANDARD_HLS, streamsOf, uriOf, useMediaNode } from './streams.js';

/**
 * The fallback player: a stream's fallbacks are prepared while it is live, and when its push is gone one
 * plays into the stream's own outputs (same URLs) until the push comes back. Pictures are 320x240 at 15 fps.
 */
const dataDir = mkdtempSync(join(tmpdir(), 'streamcloud-fallback-node-'));
const world = useMediaNode('media-fallbacks', {}, { dataDir });
const { api, createStream, createOutput, getStream, messages, snapshot, status, usage } = streamsOf(world);

interface FallbackView {
  id: string;
  state: string;
  message: string | null;
}

const fallbacksOf = async (streamId: string) =>
  (await api<FallbackView[]>('GET', `/fallbacks?streamId=${streamId}`)).body;
const fallbackState = (streamId: string, id: string, accept: (fallback: FallbackView) => boolean, what: string) =>
  waitFor(
    async () => (await fallbacksOf(streamId)).find((fallback) => fallback.id === id),
    (fallback) => fallback !== undefined && accept(fallback),
    20_000,
    what,
  );

async function addFallback(streamId: string, type: string, resource: { type: string; data: string }, label: string) {
  const created = await api<FallbackView>('POST', '/fallbacks', {
    streamId,
    type,
    label,
    settings: { resources: [resource] },
  });
  expect(created.status).toBe(201);
  return created.body;
}

/** A small HTTP server of fixed answers by path (the fallbacks' sources). */
let server: Server;
let base = '';
const files = new Map<string, { type: string; body: Buffer }>();
const workDir = mkdtempSync(join(tmpdir(), 'streamcloud-fallback-test-'));
let redSlate = Buffer.alloc(0);
/** The owner's storage (s3rver) with the slate and the clip as objects. */
let s3: LocalS3Server;

beforeAll(async () => {
  const slate = join(workDir, 'red.png');
  await runTool(
    'ffmpeg',
    ['-v', 'error', '-f', 'lavfi', '-i', 'color=c=red:s=320x240', '-frames:v', '1', slate],
    10_000,
  );
  redSlate = readFileSync(slate);
  files.set('/notes.txt', { type: 'text/plain', body: Buffer.from('not a picture at all') });
  // A 2 s lime clip with sound: the video fallback loops it.
  const clip = join(workDir, 'clip.mp4');
  await runTool(
    'ffmpeg',
    [
      ...['-v', 'error', '-f', 'lavfi', '-i', 'color=c=lime:s=320x240:r=15', '-f', 'lavfi', '-i', 'sine=r=44100'],
      ...['-t', '2', '-c:v', 'libx264', '-preset', 'ultrafast', '-g', '15', '-c:a', 'aac', clip],
    ],
    20_000,
  );
  files.set('/clip.mp4', { type: 'video/mp4', body: readFileSync(clip) });
  s3 = await startLocalS3(['media']);
  await putObject(s3, 'media', 'slates/red.png', redSlate);
  await putObject(s3, 'media', 'loops/clip.mp4', readFileSync(clip));
  server = createServer((request, response) => {
    const file = files.get(request.url ?? '');
    if (!file) {
      response.writeHead(404);
      response.end();
      return;
    }
    response.writeHead(200, { 'content-type': file.type, 'content-length': file.body.length });
    response.end(file.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
});

afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve));
  await s3?.close();
  rmSync(workDir, { recursive: true, force: true });
});

/** The session URL of an HLS output's playlist (its first answer is a redirect that names the session). */
async function hlsSession(uri: string): Promise<string> {
  const redirect = await waitFor(
    () => fetch(uri, { redirect: 'manual' }),
    (response) => response.status === 302,
    10_000,
    'the HLS session redirect',
  );
  return new URL(redirect.headers.get('location') ?? '', uri).toString();
}

/** The wall-clock start (ms) of the newest fragment in an HLS playlist (nginx names fragments by it). */
/** Polls the outgoing snapshot until its pixel at (40, 40) is `colour`. */
const outgoingColour = (streamId: string, colour: (rgb: number[]) => boolean, what: string) =>
  waitFor(
    async () => {
      const image = await snapshot(streamId, 'outgoing');
      return image ? pixelAt(image, 40, 40) : [];
    },
    (rgb) => rgb.length === 3 && colour(rgb),
    20_000,
    what,
  );
const isRed = ([r = 0, g = 0, b = 0]: number[]) => r > 200 && g < 60 && b < 60;
const isBlue = ([r = 0, g = 0, b = 0]: number[]) => r < 60 && g < 60 && b > 200;
const isYellow = ([r = 0, g = 0, b = 0]: number[]) => r > 200 && g > 200 && b < 80;
const isLime = ([r = 0, g = 0, b = 0]: number[]) => r < 80 && g > 200 && b < 80;

/**
 * A live RTMP source: ffmpeg serving a yellow picture with sound to one player at a time (`-listen 1`),
 * started again for the next one until `stop()`.
 */
function liveSource(port: number): { url: string; stop(): void } {
  const url = `rtmp://127.0.0.1:${port}/live/source`;
  let current: Push | null = null;
  let stopped = false;
  const serve = () => {
    if (stopped) return;
    current = ffmpeg([
      ...['-re', '-f', 'lavfi', '-i', 'color=c=yellow:s=320x240:r=15', '-f', 'lavfi', '-i', 'sine=r=44100'],
      ...['-c:v', 'libx264', '-preset', 'ultrafast', '-g', '15', '-c:a', 'aac', '-f', 'flv', '-listen', '1', url],
    ]);
    void current.exited.then(serve);
  };
  serve();
  return {
    url,
    stop: () => {
      stopped = true;
      current?.stop();
    },
  };
}

const newestFragmentAt = (playlist: string) =>
  Math.max(0, ...[...playlist.matchAll(/^(\d{13})\.ts/gm)].map((match) => Number(match[1])));

/** Polls an HLS playlist until its newest fragment started after `after` (ms). */
const fragmentAfter = (playlist: string, after: number, what: string, timeoutMs = 20_000) =>
  waitFor(
    async () => newestFragmentAt(await (await fetch(playlist)).text()),
    (at) => at > after,
    timeoutMs,
    what,
  );

/** The start times (ms) of the playlist's fragments after an EXT-X-DISCONTINUITY (a new publisher). */
const discontinuitiesAt = (playlist: string) => {
  const at: number[] = [];
  let discontinuity = false;
  for (const line of playlist.split('\n')) {
    if (line.startsWith('#EXT-X-DISCONTINUITY')) discontinuity = true;
    const fragment = /^(\d{13})\.ts/.exec(line);
    if (fragment) {
      if (discontinuity) at.push(Number(fragment[1]));
      discontinuity = false;
    }
  }
  return at;
};

/** The stream's webhook events in the order they happened: `type`, and `type:state` for stream.fallback. */
const streamEvents = (receiver: WebhookReceiver) =>
  receiver
    .events()
    .sort((a, b) => a.occurredAt.localeCompare(b.occurredAt))
    .map((event) => {
      const state = (event.data.fallback as { state?: string } | undefined)?.state;
      return state ? `${event.type}:${state}` : event.type;
    });

describe('Slate fallback', () => {
  it('takes over when the push drops (same HLS playlist, the slate picture, stream.fallback webhooks), stays on through a push that drops before its media, and gives the stream back to a new push', async () => {
    const hooks = await startWebhookReceiver();
    const stream = await createStream({ format: 'RTMP', callbackUri: `${hooks.url}/stream` });
    const output = await createOutput(stream.id, 'HLS', STANDARD_HLS);
    await api('PUT', `/snapshots/stream/${stream.id}/outgoing`, { format: 'PNG', quality: 'Low', interval: 1 });
    const slate = await addFallback(
      stream.id,
      'Slate',
      { type: 'DATA_URI', data: `data:image/png;base64,${redSlate.toString('base64')}` },
      'Be right back',
    );
    // A blue picture: the slate's red is told apart from it in the snapshots.
    const push = () => pushTestPattern(uriOf(stream), 'flv', 60, { source: 'color=c=blue' });
    const first = push();
    let reader: Push | null = null;
    let second: Push | null = null;
    try {
      await status(stream.id, 'Ingestion');
      await fallbackState(
        stream.id,
        slate.id,
        (f) => f.state === 'Pending' && f.message === 'Ready: PNG 320x240',
        'the slate ready',
      );
      const playlist = await hlsSession(output.connection?.uri ?? '');
      await waitFor(
        async () => (await fetch(playlist)).text(),
        (text) => (text.match(/^\d{13}\.ts/gm) ?? []).length >= 3,
        10_000,
        'three fragments of the push',
      );
      reader = ffmpeg(['-i', playlist, '-f', 'null', '-']);
      first.stop();
      await first.exited;
      const dropped = Date.now();

      await status(stream.id, 'Fallback', 15_000);
      expect(await messages(stream.id)).toContain('Fallback Be right back started');
      await fallbackState(stream.id, slate.id, (f) => f.state === 'Ingestion', 'the slate playing');
      // The same playlist goes on with the slate's fragments, and the outgoing snapshot is the slate.
      await fragmentAfter(playlist, dropped + 3000, 'fragments of the slate in the playlist');
      await outgoingColour(stream.id, isRed, 'a red outgoing snapshot');
      expect(reader.running()).toBe(true);

      // An encoder that connects and drops before any media (FLV1 video, which nginx does not package: no
      // fragment): the stream stays Fallback (no status report, webhook or message) and the slate plays on.
      const blip = ffmpeg([
        ...['-re', '-f', 'lavfi', '-i', 'color=c=blue:s=320x240:r=15', '-t', '1.5'],
        ...['-c:v', 'flv1', '-f', 'flv', uriOf(stream)],
      ]);
      await blip.exited;
      const blipped = Date.now();
      await fragmentAfter(playlist, blipped, 'fragments of the slate after the blip');
      expect((await getStream(stream.id)).status).toBe('Fallback');
      const said = await messages(stream.id);
      expect(said.filter((text) => text === 'Fallback Be right back started')).toHaveLength(1);
      expect(said.some((text) => text.startsWith('Push resumed'))).toBe(false);

      // The encoder flaps on: within a minute of that drop a returning push is held before the slate makes
      // way, and one that leaves meanwhile (0.8 s, the hold is 2 s) never stopped it: no new discontinuity.
      const flapped = Date.now();
      const flap = ffmpeg([
        ...['-re', '-f', 'lavfi', '-i', 'color=c=blue:s=320x240:r=15', '-t', '10'],
        ...['-c:v', 'flv1', '-f', 'flv', uriOf(stream)],
      ]);
      await sleep(800);
      flap.stop();
      await flap.exited;
      await fragmentAfter(playlist, flapped + 2500, 'fragments of the slate after the flap');
      const restartedAt = discontinuitiesAt(await (await fetch(playlist)).text());
      expect(restartedAt.filter((at) => at > flapped)).toEqual([]);
      expect((await getStream(stream.id)).status).toBe('Fallback');

      // The push comes back: Ingestion again, the slate stops and is ready for the next drop.
      second = push();
      await status(stream.id, 'Ingestion', 15_000);
      expect((await messages(stream.id)).some((text) => text.startsWith('Push resumed over RTMP'))).toBe(true);
      await fallbackState(
        stream.id,
        slate.id,
        (f) => f.state === 'Pending' && f.message === 'Ready: PNG 320x240',
        'the slate ready again',
      );
      const resumed = Date.now();
      await fragmentAfter(playlist, resumed, 'fragments of the resumed push', 15_000);
      expect(reader.running()).toBe(true);
      await outgoingColour(stream.id, isBlue, 'the blue push picture again');

      // The push drops again and the slate takes over again; Stop in the console ends it: Idle.
      second.stop();
      await second.exited;
      await status(stream.id, 'Fallback', 15_000);
      expect((await api('PUT', `/inputs/${stream.id}`, { state: 'Idle' })).status).toBe(200);
      await fallbackState(stream.id, slate.id, (f) => f.state === 'Pending', 'the slate stopped');
      expect((await getStream(stream.id)).status).toBe('Idle');

      // The stream's callback heard each takeover start and end, between the pushes and the Stop.
      await hooks.waitFor(7);
      // (A resumed push's stream.fallback ended and stream.ingestion happen at the same instant.)
      const events = streamEvents(hooks);
      expect(events.filter((event) => event.startsWith('stream.fallback'))).toEqual([
        'stream.fallback:started',
        'stream.fallback:ended',
        'stream.fallback:started',
        'stream.fallback:ended',
      ]);
      expect(events.filter((event) => !event.startsWith('stream.fallback'))).toEqual([
        'stream.ingestion',
        'stream.ingestion',
        'stream.idle',
      ]);
      expect(hooks.events().every((event) => event.data.id === stream.id)).toBe(true);

      // Billing: the slate is not ingest. The three pushes (the blip too) are the stream's only billed
      // publish sessions (the takeovers would have added three), and what the HLS reader got is outgoing.
      const billed = await waitFor(
        () => usage(stream.id),
        (bill) => bill.sessions >= 3 && bill.outgoing > 0,
        10_000,
        'the pushes and the reader billed',
      );
      expect(billed.sessions).toBe(3);
    } finally {
      first.stop();
      second?.stop();
      reader?.stop();
      await hooks.close();
    }
  });
});

describe('Input and Video fallbacks', () => {
  it('plays a live input, and when it fails the next fallback, a video looped', async () => {
    const stream = await createStream({ format: 'RTMP' });
    await api('PUT', `/snapshots/stream/${stream.id}/outgoing`, { format: 'PNG', quality: 'Low', interval: 1 });
    const source = liveSource(await freePort());
    const input = await addFallback(stream.id, 'Input', { type: 'URL', data: source.url }, 'Studio B');
    const video = await addFallback(stream.id, 'Video', { type: 'URL', data: `${base}/clip.mp4` }, 'Loop');
    const push = pushTestPattern(uriOf(stream), 'flv', 60, { source: 'color=c=blue' });
    try {
      await status(stream.id, 'Ingestion');
      await fallbackState(
        stream.id,
        input.id,
        (f) => f.message === 'Ready: H264 320x240 with audio',
        'the input ready',
      );
      await fallbackState(
        stream.id,
        video.id,
        (f) => f.message === 'Ready: H264 320x240 with audio',
        'the video ready',
      );
      await outgoingColour(stream.id, isBlue, 'the push picture');
      push.stop();
      await push.exited;

      // The first fallback of the list plays: the live input.
      await status(stream.id, 'Fallback', 15_000);
      expect(await messages(stream.id)).toContain('Fallback Studio B started');
      await fallbackState(stream.id, input.id, (f) => f.state === 'Ingestion', 'the input playing');
      await outgoingColour(stream.id, isYellow, 'the live input in the outgoing snapshot');

      // The live source goes away: the input fallback is in Error and the video takes over, looping.
      source.stop();
      await fallbackState(
        stream.id,
        input.id,
        (f) => f.state === 'Error' && (f.message ?? '').startsWith('Playing failed'),
        'the input failed',
      );
      await fallbackState(stream.id, video.id, (f) => f.state === 'Ingestion', 'the video playing');
      expect(await messages(stream.id)).toContain('Fallback Loop started');
      expect((await getStream(stream.id)).status).toBe('Fallback');
      await outgoingColour(stream.id, isLime, 'the video in the outgoing snapshot');
      // The 2 s clip loops: the stream is still in Fallback on the video well after its end.
      // Two and a half loops of the clip play (the scenario, not a wait for a state): a clip that did not
      // loop would have ended in Error and the stream in Idle.
      await sleep(5000);
      await fallbackState(stream.id, video.id, (f) => f.state === 'Ingestion', 'the video still playing');
      expect((await getStream(stream.id)).status).toBe('Fallback');
      expect((await api('PUT', `/inputs/${stream.id}`, { state: 'Idle' })).status).toBe(200);
      await fallbackState(stream.id, video.id, (f) => f.state === 'Pending', 'the video stopped');
    } finally {
      push.stop();
      source.stop();
    }
  });
});

describe('Fallback sources that cannot play', () => {
  it('reports why (404, not an image, unreachable) and the stream ends Idle when none can take over', async () => {
    const stream = await createStream({ format: 'RTMP' });
    const missing = await addFallback(stream.id, 'Slate', { type: 'URL', data: `${base}/missing.png` }, 'Missing');
    const notImage = await addFallback(stream.id, 'Slate', { type: 'URL', data: `${base}/notes.txt` }, 'Notes');
    const closedPort = await freePort();
    const unreachable = await addFallback(
      stream.id,
      'Video',
      { type: 'URL', data: `http://127.0.0.1:${closedPort}/clip.mp4` },
      'Nowhere',
    );
    const push = pushTestPattern(uriOf(stream), 'flv', 4);
    try {
      await status(stream.id, 'Ingestion');
      await fallbackState(stream.id, missing.id, (f) => f.state === 'Error', 'the missing slate in Error');
      await fallbackState(stream.id, notImage.id, (f) => f.state === 'Error', 'the text slate in Error');
      await fallbackState(stream.id, unreachable.id, (f) => f.state === 'Error', 'the unreachable video in Error');
      const states = new Map((await fallbacksOf(stream.id)).map((f) => [f.id, f.message]));
      expect(states.get(missing.id)).toBe(`404 from ${base}/missing.png`);
      expect(states.get(notImage.id)).toBe('not an image');
      expect(states.get(unreachable.id)).toBe(
        `http://127.0.0.1:${closedPort}/clip.mp4 cannot be reached: ECONNREFUSED`,
      );
      expect(await push.exited).toBe(0);
      await status(stream.id, 'Idle', 15_000);
      expect((await getStream(stream.id)).statusMessages.map((m) => m.text)).toContain('Push ended');
    } finally {
      push.stop();
    }
  });
});

describe('Storage object fallbacks', () => {
  it("plays a slate kept in the owner's storage (fetched with the storage's credentials, kept under the data directory) and says which objects are missing", async () => {
    const stream = await createStream({ format: 'RTMP' });
    await api('PUT', `/snapshots/stream/${stream.id}/outgoing`, { format: 'PNG', quality: 'Low', interval: 1 });
    const storage = await createStorage(api, s3, { bucket: 'media' });
    const missing = await addFallback(
      stream.id,
      'Slate',
      { type: 'STORAGE', data: `${storage.id}/slates/missing.png` },
      'Gone',
    );
    const slate = await addFallback(
      stream.id,
      'Slate',
      { type: 'STORAGE', data: `${storage.id}/slates/red.png` },
      'Red',
    );
    const video = await addFallback(
      stream.id,
      'Video',
      { type: 'STORAGE', data: `${storage.id}/loops/clip.mp4` },
      'Clip',
    );
    const push = pushTestPattern(uriOf(stream), 'flv', 60, { source: 'color=c=blue' });
    try {
      await status(stream.id, 'Ingestion');
      await fallbackState(
        stream.id,
        missing.id,
        (f) => f.state === 'Error' && f.message === '"slates/missing.png" not found in bucket "media"',
        'the missing object in Error',
      );
      await fallbackState(stream.id, slate.id, (f) => f.message === 'Ready: PNG 320x240', 'the stored slate ready');
      await fallbackState(
        stream.id,
        video.id,
        (f) => f.message === 'Ready: H264 320x240 with audio',
        'the stored video ready',
      );
      // The objects are kept on the node, under MEDIA_DATA_DIR, for the takeover.
      expect(readFileSync(join(dataDir, 'fallbacks', `${slate.id}.png`)).equals(redSlate)).toBe(true);
      expect(existsSync(join(dataDir, 'fallbacks', `${video.id}.video`))).toBe(true);
      await outgoingColour(stream.id, isBlue, 'the push picture');
      push.stop();
      await push.exited;

      await status(stream.id, 'Fallback', 15_000);
      expect(await messages(stream.id)).toContain('Fallback Red started');
      await fallbackState(stream.id, slate.id, (f) => f.state === 'Ingestion', 'the stored slate playing');
      await outgoingColour(stream.id, isRed, 'the stored slate in the outgoing snapshot');
      expect((await api('PUT', `/inputs/${stream.id}`, { state: 'Idle' })).status).toBe(200);
      await fallbackState(stream.id, slate.id, (f) => f.state === 'Pending', 'the stored slate stopped');
    } finally {
      push.stop();
    }
  });
});
