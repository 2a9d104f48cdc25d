import type { NodeUsage, StreamOutput } from '@streamcloud/contract';
import { afterAll, describe, expect, it } from 'vitest';
import {
  nodeMetadata,
  playRtmp,
  pushTestPattern,
  type RunningNode,
  runTool,
  sleep,
  startMediaNode,
  waitFor,
} from './harness.js';
import { createSigningKey, mintToken } from './playback-tokens.js';
import { STANDARD_HLS, streamsOf, useMediaNode } from './streams.js';

/**
 * The Internode path with two real nodes on loopback: a stream pushed to node A (its origin), viewers of
 * outputs assigned to node B (an edge of the streaming cloud's Outgoing group), B pulling from A only while
 * it has viewers, and the pulled bytes billed as internode usage on both nodes.
 */
/** The origin's reconnect grace: long enough for the tests' encoder to reconnect within it under load. */
const GRACE_MS = 3000;
const world = useMediaNode('edge-origin', { RECONNECT_GRACE_MS: String(GRACE_MS) });
const { api, createStream, createOutput, createSmallLadderStream, getStream, status, outputs, usage } =
  streamsOf(world);
let edge: RunningNode | undefined;
let groupId: string | undefined;
afterAll(async () => {
  await edge?.stop();
  if (groupId) await api('DELETE', `/node-groups/${groupId}`);
});

interface EdgePull {
  inputId: string;
  kind: 'edge' | 'internode';
  rendition: string | null;
  source: string;
  origin: string;
  bytes: number;
}
const pullsOn = async (node: RunningNode): Promise<EdgePull[]> =>
  (await nodeMetadata<{ edgePulls: EdgePull[] }>(node)).edgePulls;
/** What the node's rewind windows (and VODs) take on its disk. */
const dvrBytesOn = async (node: RunningNode) =>
  (await nodeMetadata<{ protocols: { HLS: { lowLatency: { dvrBytes: number } } } }>(node)).protocols.HLS.lowLatency
    .dvrBytes;
/** The packaging ffmpegs of B's LL-HLS pipeline for the stream B pulls (its variants); undefined: no such stream. */
const llPipelineVariantsOn = async (node: RunningNode, streamId: string) =>
  (
    await nodeMetadata<{ streams: { id: string; pipelines: Record<string, { variants?: unknown[] }> }[] }>(node)
  ).streams.find((stream) => stream.id === streamId)?.pipelines['LL-HLS packager']?.variants;
const withToken = (output: StreamOutput) =>
  `${output.connection?.uri}?token=${encodeURIComponent(output.viewer.accessToken ?? '')}`;

/** The stream's internode and outgoing usage per node, as billing shows it. */
async function usageByNode(streamId: string) {
  const from = new Date(Date.now() - 3600_000).toISOString();
  const to = new Date(Date.now() + 3600_000).toISOString();
  const answer = (
    await api<{ streams: { internode: NodeUsage[]; outgoing: NodeUsage[] }[] }>(
      'GET',
      `/statistics/stream/${streamId}/from/${from}/to/${to}`,
    )
  ).body;
  const sum = (kind: 'internode' | 'outgoing', nodeId: string, field: 'upload' | 'download') =>
    answer.streams
      .flatMap((stream) => stream[kind])
      .filter((entry) => entry.nodeId === nodeId)
      .reduce((total, entry) => total + entry[field], 0);
  // The figures themselves too, so a failed wait says what was billed.
  return { sum, streams: answer.streams };
}

describe('origin and edge', () => {
  it('plays a stream pushed to node A from node B, pulled only while B has viewers, its internode bytes billed', async () => {
    edge = await startMediaNode(world.plane, 'edge-b', { EDGE_IDLE_MS: '1500' });
    const group = await api<{ id: string }>('POST', '/node-groups', {
      name: 'edges',
      assignment: 'Outgoing',
      ownerId: 'NONE',
    });
    expect(group.status).toBe(201);
    groupId = group.body.id;
    expect((await api('PUT', `/node-groups/${groupId}/node/${edge.id}`)).status).toBe(204);

    // The push goes to A (B is kept for viewers); the outputs go to B, and their URLs name it.
    const stream = await createStream({ format: 'RTMP', access: 'Private' });
    expect(stream.servingNode?.id).toBe(world.node.id);
    const rtmp = await createOutput(stream.id, 'RTMP');
    const hls = await createOutput(stream.id, 'HLS', STANDARD_HLS);
    expect(rtmp.node?.id).toBe(edge.id);
    expect(rtmp.connection?.uri).toBe(`rtmp://127.0.0.1:${edge.rtmpPort}/live/${encodeURIComponent(rtmp.name)}`);
    expect(hls.connection?.uri).toBe(`http://127.0.0.1:${edge.port}/hls/${encodeURIComponent(hls.name)}/index.m3u8`);

    const pushUrl = `${(stream.connection as { uri: string }).uri}?token=${stream.accessToken}`;
    // An edge never takes the stream's push.
    const refused = pushTestPattern(pushUrl.replace(`:${world.node.rtmpPort}/`, `:${edge.rtmpPort}/`), 'flv', 2);
    expect(await refused.exited).not.toBe(0);

    const push = pushTestPattern(pushUrl, 'flv', 30, { size: '160x120', rate: 10 });
    try {
      await status(stream.id, 'Ingestion', 15_000);
      expect(await pullsOn(edge)).toEqual([]);

      // The first viewer on B starts the pull; it plays; the pull is not a viewer of the origin.
      // Long enough for its session to be reported and read while it plays, also when the pull starts slowly.
      const viewer = playRtmp(withToken(rtmp), 6);
      await waitFor(
        () => pullsOn(edge as RunningNode),
        (pulls) => pulls.length === 1,
        10_000,
        'the pull from A',
      );
      const sessions = await waitFor(
        () => outputs(stream.id),
        (listed) => listed.find((output) => output.id === rtmp.id)?.sessions.length === 1,
        10_000,
        'the viewer session on B',
      );
      expect(sessions.find((output) => output.id === rtmp.id)?.sessions[0]?.ipAddress).toBe('127.0.0.1');
      expect(await viewer.exited, viewer.stderr()).toBe(0);

      // The last viewer left: the pull stops.
      await waitFor(
        () => pullsOn(edge as RunningNode),
        (pulls) => pulls.length === 0,
        10_000,
        'the pull to stop',
      );

      // An HLS viewer on B pulls again and gets the stream's fragments: its first request answers the playlist
      // (it waits for the pull's first fragment rather than answering 404, which players do not retry).
      const response = await fetch(withToken(hls));
      const playlist = { status: response.status, url: response.url, body: await response.text() };
      expect(playlist.status, playlist.body).toBe(200);
      expect(playlist.body).toMatch(/\.ts\?/);
      const fragment = playlist.body.split('\n').find((line) => line.includes('.ts?')) ?? '';
      const media = await fetch(new URL(fragment, playlist.url));
      expect(media.status).toBe(200);
      expect((await media.arrayBuffer()).byteLength).toBeGreaterThan(1000);
      expect((await pullsOn(edge)).map((pull) => pull.inputId)).toEqual([stream.id]);
      // Its pull carries both tracks (the pull's probe of the origin's stream is short).
      const tracks = await runTool(
        'ffprobe',
        [
          '-v',
          'error',
          '-show_entries',
          'stream=codec_name',
          '-of',
          'csv=p=0',
          new URL(fragment, playlist.url).toString(),
        ],
        15_000,
      );
      // (ffprobe names an MPEG-TS stream twice: in its program and on its own.)
      expect([...new Set(tracks.stdout.split('\n').filter(Boolean))].sort(), tracks.stderr).toEqual(['aac', 'h264']);

      // The push drops for good: B's HLS viewer keeps its playlist through A's reconnect grace, as A's own viewers
      // do, and it ends with EXT-X-ENDLIST only once the grace is over (not when B's pull ended with A's push).
      // Meanwhile each of its playlist requests would try the pull again (the origin refuses it): a refused pull
      // is not tried again for a second, whatever the requests (B logs each failed try).
      let failedPulls = 0;
      const countFailedPulls = (chunk: Buffer) => {
        failedPulls += chunk.toString().match(/ ERROR pulling .* failed/g)?.length ?? 0;
      };
      (edge as RunningNode).process.stderr?.on('data', countFailedPulls);
      const droppedAt = Date.now();
      push.stop();
      const ended = await waitFor(
        async () => {
          const answer = await fetch(playlist.url);
          return { status: answer.status, body: await answer.text(), at: Date.now() };
        },
        (answer) => answer.status !== 200 || answer.body.trimEnd().endsWith('#EXT-X-ENDLIST'),
        15_000,
        "B's playlist to end",
      );
      expect(ended.status, ended.body).toBe(200);
      expect(ended.at - droppedAt).toBeGreaterThanOrEqual(GRACE_MS);
      (edge as RunningNode).process.stderr?.off('data', countFailedPulls);
      // Polled every 200 ms for the grace and more: one try a second at most (and one more at each end).
      expect(failedPulls).toBeLessThanOrEqual(Math.ceil((ended.at - droppedAt) / 1000) + 2);
      expect((await getStream(stream.id)).status).toBe('Idle');
    } finally {
      push.stop();
    }
    await status(stream.id, 'Idle', 15_000);
    await waitFor(
      () => pullsOn(edge as RunningNode),
      (pulls) => pulls.length === 0,
      10_000,
      'the pull to end',
    );

    // Both nodes bill the pulled bytes as internode: A sent them (download), B received them (upload), the
    // same TCP streams counted on each side to the byte (a pull's connection is drained, not cut, when either
    // side ends it); B's viewers are B's outgoing, A has none.
    const origin = world.node.id;
    const edgeId = edge.id;
    const billed = await waitFor(
      () => usageByNode(stream.id),
      ({ sum }) =>
        sum('internode', origin, 'download') > 0 &&
        sum('internode', origin, 'download') === sum('internode', edgeId, 'upload'),
      20_000,
      'the same internode bytes on both nodes',
    );
    expect(billed.sum('internode', origin, 'download')).toBeGreaterThan(20_000);
    expect(billed.sum('outgoing', origin, 'download')).toBe(0);
    expect(billed.sum('outgoing', edgeId, 'download')).toBeGreaterThan(0);
  });

  it("serves a Low latency output from B's own packager; ends a Signed output's HLS and RTMP viewers on B within 2 s of their tokens' revocation", async () => {
    const node = edge as RunningNode;
    const key = await createSigningKey(world, 'edge test');
    const stream = await createStream({ format: 'RTMP' });
    const hls = await createOutput(stream.id, 'HLS', { access: 'Signed', ...STANDARD_HLS });
    const rtmp = await createOutput(stream.id, 'RTMP', { access: 'Signed' });
    const push = pushTestPattern((stream.connection as { uri: string }).uri, 'flv', 40, { size: '160x120', rate: 10 });
    const withSigned = (output: StreamOutput, jti: string) =>
      `${output.connection?.uri}?${new URLSearchParams({ token: mintToken(key, { sub: output.id, jti }) })}`;
    let player: ReturnType<typeof playRtmp> | undefined;
    try {
      await status(stream.id, 'Ingestion', 15_000);
      // B's RTMP viewer starts the pull; a Low output made and asked for while that pull starts (B reads its new
      // output at once, for the request naming it; the pull publishes at the origin's next keyframe) is packaged once
      // the pull is B's stream: that stream is the control plane's newest word on it, not the one read when the pull
      // started (whose outputs had no Low one). The chaos run's case (docs/chaos.md); polled closely, to be in time.
      player = playRtmp(withSigned(rtmp, 'edge-rtmp'), 40);
      for (const until = Date.now() + 10_000; !(await pullsOn(node)).some((pull) => pull.inputId === stream.id); ) {
        if (Date.now() > until) throw new Error('no pull for the RTMP viewer within 10 s');
        await sleep(50);
      }
      const low = await createOutput(stream.id, 'HLS', { hlsLatency: 'Low' });
      expect([hls.node?.id, rtmp.node?.id, low.node?.id]).toEqual([node.id, node.id, node.id]);
      // B pulls the stream for its LL-HLS viewer and packages it itself: parts, and a blocking reload held on B.
      const lowOpened = await fetch(low.connection?.uri ?? '', { redirect: 'manual' });
      expect(lowOpened.status).toBe(302);
      const lowPlaylist = new URL(lowOpened.headers.get('location') ?? '', low.connection?.uri);
      const parts = await waitFor(
        async () => (await fetch(lowPlaylist)).text(),
        (text) => text.includes('#EXT-X-PRELOAD-HINT'),
        15_000,
        "B's LL-HLS playlist",
      );
      const [, msn = '0', part = '0'] = /PRELOAD-HINT:TYPE=PART,URI="part-(\d+)\.(\d+)/.exec(parts) ?? [];
      lowPlaylist.searchParams.set('_HLS_msn', msn);
      lowPlaylist.searchParams.set('_HLS_part', part);
      expect(await (await fetch(lowPlaylist)).text()).toContain(`part-${msn}.${part}.m4s`);
      // Made Low while B pulled the stream: packaged by B's LL-HLS pipeline (the pull's ffmpeg cannot gain an output).
      expect(await llPipelineVariantsOn(node, stream.id)).toHaveLength(1);
      const opened = await fetch(withSigned(hls, 'edge-hls'), { redirect: 'manual' });
      expect(opened.status, await opened.clone().text()).toBe(302);
      const playlist = new URL(opened.headers.get('location') ?? '', hls.connection?.uri);
      expect((await fetch(playlist)).status).toBe(200);
      await waitFor(
        () => outputs(stream.id),
        (listed) => listed.every((output) => output.sessions.length >= 1),
        15_000,
        'both viewers on B',
      );

      const revokedAt = Date.now();
      for (const jti of ['edge-hls', 'edge-rtmp'])
        expect((await api('POST', '/playback-tokens/revocations', { jti })).status).toBe(201);
      const refused = await waitFor(
        async () => {
          const answer = await fetch(playlist);
          return { status: answer.status, body: await answer.text() };
        },
        (answer) => answer.status !== 200,
        2000,
        'the HLS viewer on B refused',
      );
      expect(refused).toEqual({ status: 403, body: JSON.stringify({ message: 'The token has been revoked' }) });
      const ending = player.exited.then(() => 'ended');
      expect(await Promise.race([ending, sleep(2000 - (Date.now() - revokedAt))])).toBe('ended');
      console.info(`revocation on an edge: both viewers ended ${Date.now() - revokedAt} ms after the API calls`);
    } finally {
      player?.stop();
      push.stop();
    }
  });

  it('an Internode stream on node B pulls its source from node A while the source is live, its own outputs play', async () => {
    const node = edge as RunningNode;
    // The source is pushed to A; the Internode stream goes to the other node, B, and says where it pulls from.
    const source = await createStream({ format: 'RTMP' });
    expect(source.servingNode?.id).toBe(world.node.id);
    const copy = await createStream({
      format: 'Internode',
      caption: 'copy',
      source: { streamNode: world.node.name, name: source.name },
    });
    expect(copy.servingNode?.id).toBe(node.id);
    expect(copy.connection).toEqual({ hostname: '127.0.0.1', streamNode: world.node.name });
    expect(copy.source).toEqual({ id: source.id, name: source.name, streamNode: world.node.name });
    const viewer = await createOutput(copy.id, 'RTMP');
    expect(viewer.node?.id).toBe(node.id);

    const push = pushTestPattern((source.connection as { uri: string }).uri, 'flv', 30, { size: '160x120', rate: 10 });
    try {
      await status(source.id, 'Ingestion', 15_000);
      const live = await status(copy.id, 'Ingestion', 15_000);
      expect(live.statusMessages[0]?.text).toBe('Push started over Internode from 127.0.0.1');
      expect((await pullsOn(node)).map(({ kind, source: pulled }) => ({ kind, pulled }))).toEqual([
        { kind: 'internode', pulled: source.name },
      ]);
      const play = playRtmp(viewer.connection?.uri ?? '', 2);
      expect(await play.exited, play.stderr()).toBe(0);
    } finally {
      push.stop();
    }
    // The source's push ended: so does the Internode stream's, and its pull.
    await status(copy.id, 'Idle', 15_000);
    // A retry started from a read of the streams older than the source's end fails and is not started again.
    await waitFor(
      () => pullsOn(node),
      (pulls) => pulls.length === 0,
      10_000,
      'the Internode pull to end',
    );
    // The pulled bytes are internode on both nodes (A's for the source, B's for the copy), never B's ingest.
    const billed = await waitFor(
      async () => ({ copy: await usageByNode(copy.id), source: await usageByNode(source.id) }),
      (found) =>
        found.copy.sum('internode', node.id, 'upload') > 20_000 &&
        found.source.sum('internode', world.node.id, 'download') > 20_000,
      10_000,
      'internode usage of the Internode stream',
    );
    expect(billed.copy.sum('outgoing', node.id, 'download')).toBeGreaterThan(0);
    expect((await usage(copy.id)).upload).toBe(0);
  });

  it("a transcoding origin's ladder on node B: the master at once, each variant pulled from A only while it is watched", async () => {
    const node = edge as RunningNode;
    const stream = await createSmallLadderStream([
      [160, 90],
      [96, 54],
    ]);
    const hls = await createOutput(stream.id, 'HLS', STANDARD_HLS);
    expect(hls.node?.id).toBe(node.id);
    const url = hls.connection?.uri ?? '';
    const get = async (at: string) => {
      const response = await fetch(at);
      return { status: response.status, url: response.url, text: await response.text() };
    };
    const renditionPulls = async () =>
      (await pullsOn(node)).filter((pull) => pull.inputId === stream.id && pull.rendition !== null);

    const pushUrl = (stream.connection as { uri: string }).uri;
    const push = pushTestPattern(pushUrl, 'flv', 30, { size: '160x120', rate: 10 });
    try {
      await status(stream.id, 'Ingestion', 15_000);
      // A reads its renditions' first fragments and reports its ladder; B gets it with its streams and answers
      // the same master at once (before that, B plays the stream as one media playlist).
      const master = await waitFor(
        () => get(url),
        (answer) => answer.status === 200 && answer.text.includes('#EXT-X-STREAM-INF'),
        20_000,
        "the origin's ladder as B's master playlist",
      );
      const variants = master.text
        .split('\n')
        .flatMap((line, index, lines) =>
          line.startsWith('#EXT-X-STREAM-INF:')
            ? [{ info: line, url: new URL(lines[index + 1] ?? '', master.url) }]
            : [],
        );
      expect(variants.map(({ info }) => /RESOLUTION=(\d+x\d+)/.exec(info)?.[1])).toEqual(['160x90', '96x54']);
      expect(variants.every(({ info }) => /BANDWIDTH=246000\b/.test(info) && /CODECS="avc1\./.test(info))).toBe(true);
      expect(variants.map((variant) => variant.url.pathname.split('/').at(-2))).toEqual(['r0', 'r1']);

      // The lower variant asked for: only its rendition is pulled, and its playlist is answered once it has a fragment.
      const low = variants[1]?.url.toString() ?? '';
      const playlist = await get(low);
      expect(playlist.status, playlist.text).toBe(200);
      const fragment = playlist.text.split('\n').find((line) => line.includes('.ts?')) ?? '';
      const media = await fetch(new URL(fragment, playlist.url));
      expect(media.status).toBe(200);
      expect((await media.arrayBuffer()).byteLength).toBeGreaterThan(500);
      expect((await renditionPulls()).map((pull) => pull.rendition)).toEqual(['r1']);

      // Then the top one: pulled too; r1, no longer asked for, stops on its own while r0 is still watched.
      const top = variants[0]?.url.toString() ?? '';
      expect((await get(top)).status).toBe(200);
      await waitFor(
        async () => {
          expect((await get(top)).status).toBe(200);
          return (await renditionPulls()).map((pull) => pull.rendition);
        },
        (pulled) => pulled.length === 1 && pulled[0] === 'r0',
        10_000,
        'the unwatched rendition r1 to stop while r0 plays',
      );

      // The encoder reconnects (it drops and pushes again at once, within A's reconnect grace): B's HLS viewer
      // gets what A's get, the master and the variant answered throughout: the variant's last playlist while A
      // has nothing to pull (its transcoder restarts), then continued after a discontinuity.
      const answers: { master: number; variant: number; text: string }[] = [];
      let watching = true;
      const watcher = (async () => {
        while (watching) {
          const [shown, played] = await Promise.all([get(master.url), get(top)]).catch((error: Error) => [
            { status: 0, text: error.message },
            { status: 0, text: error.message },
          ]);
          answers.push({ master: shown.status, variant: played.status, text: played.text });
          // A player's refresh.
          await sleep(250);
        }
      })();
      push.stop();
      await push.exited;
      const again = pushTestPattern(pushUrl, 'flv', 30, { size: '160x120', rate: 10 });
      try {
        await waitFor(
          async () => answers,
          (seen) => seen.some((answer) => answer.text.includes('#EXT-X-DISCONTINUITY')),
          20_000,
          "B's variant continued after a discontinuity",
        );
        again.stop();
        // The push is gone for good: once A's grace is over, B's variant ends with EXT-X-ENDLIST; the master stays.
        await waitFor(
          async () => answers,
          (seen) => seen.some((answer) => answer.text.trimEnd().endsWith('#EXT-X-ENDLIST')),
          15_000,
          "B's variant to end with EXT-X-ENDLIST",
        );
      } finally {
        again.stop();
        watching = false;
        await watcher;
      }
      expect((await getStream(stream.id)).status).toBe('Idle');
      expect(answers.filter((answer) => answer.master !== 200 || answer.variant !== 200)).toEqual([]);
      const resumedAt = answers.findIndex((answer) => answer.text.includes('#EXT-X-DISCONTINUITY'));
      expect(answers.slice(0, resumedAt).filter((answer) => answer.text.includes('#EXT-X-ENDLIST'))).toEqual([]);
    } finally {
      push.stop();
    }
    await waitFor(renditionPulls, (pulls) => pulls.length === 0, 10_000, 'the rendition pulls to end');
    // The renditions' bytes are internode traffic on both nodes.
    const billed = await waitFor(
      () => usageByNode(stream.id),
      ({ sum }) => sum('internode', world.node.id, 'download') > 0 && sum('internode', node.id, 'upload') > 0,
      10_000,
      'internode usage of the renditions',
    );
    expect(billed.sum('outgoing', node.id, 'download')).toBeGreaterThan(0);
  });

  it("a transcoding origin's ladder as Low latency on node B: its variants pulled and packaged on B, blocking reloads, rendition reports", async () => {
    const node = edge as RunningNode;
    const stream = await createSmallLadderStream([
      [160, 90],
      [96, 54],
    ]);
    const low = await createOutput(stream.id, 'HLS', { hlsLatency: 'Low' });
    expect(low.node?.id).toBe(node.id);
    const get = async (at: string | URL) => {
      const response = await fetch(at);
      return { status: response.status, url: response.url, text: await response.text() };
    };
    const push = pushTestPattern((stream.connection as { uri: string }).uri, 'flv', 25, { size: '160x120', rate: 10 });
    try {
      await status(stream.id, 'Ingestion', 15_000);
      const master = await waitFor(
        () => get(low.connection?.uri ?? ''),
        (answer) => answer.status === 200 && answer.text.includes('#EXT-X-STREAM-INF'),
        20_000,
        "the origin's ladder as B's master playlist",
      );
      expect(master.text.match(/CODECS="avc1\./g)?.length).toBe(2);
      const [top = '', bottom = ''] = master.text
        .split('\n')
        .filter((line) => line.includes('/index.m3u8'))
        .map((line) => new URL(line, master.url).toString());

      // The lower variant: B pulls its rendition and packages it itself; a blocking reload is held until the part
      // the playlist's preload hint names exists, then answered with it.
      const playlist = await waitFor(
        () => get(bottom),
        (answer) => answer.status === 200 && answer.text.includes('#EXT-X-PRELOAD-HINT'),
        20_000,
        "B's LL-HLS playlist of r1",
      );
      expect(playlist.text).toContain('CAN-BLOCK-RELOAD=YES');
      const [, msn = '0', part = '0'] = /PRELOAD-HINT:TYPE=PART,URI="part-(\d+)\.(\d+)/.exec(playlist.text) ?? [];
      const blocking = new URL(playlist.url);
      blocking.searchParams.set('_HLS_msn', msn);
      blocking.searchParams.set('_HLS_part', part);
      const reloaded = await get(blocking);
      expect(reloaded.status, reloaded.text).toBe(200);
      const partUri = /URI="(part-\d+\.\d+\.m4s[^"]*)"/.exec(
        reloaded.text.split('\n').find((line) => line.includes(`part-${msn}.${part}.m4s`)) ?? '',
      )?.[1];
      const media = await fetch(new URL(partUri ?? 'missing', reloaded.url));
      expect(media.status).toBe(200);
      expect((await media.arrayBuffer()).byteLength).toBeGreaterThan(100);

      // That one viewer keeps every variant pulled and packaged on B (a switch finds the other's parts at once):
      // r1's playlist reports r0 (EXT-X-RENDITION-REPORT), and r0's, asked now, has parts and reports r1.
      const reported = await waitFor(
        () => get(bottom),
        (answer) => answer.text.includes('#EXT-X-RENDITION-REPORT:URI="../r0/index.m3u8'),
        15_000,
        "r1's report of r0",
      );
      expect(reported.status).toBe(200);
      const switched = await get(top);
      expect(switched.status, switched.text).toBe(200);
      expect(switched.text).toContain('#EXT-X-PART:');
      expect(switched.text).toContain('#EXT-X-RENDITION-REPORT:URI="../r1/index.m3u8');
      const pulled = (await pullsOn(node)).filter((pull) => pull.inputId === stream.id && pull.rendition !== null);
      expect(pulled.map((pull) => pull.rendition).sort()).toEqual(['r0', 'r1']);

      // A rewind window asked for while the variants play: their packagers on B keep it (the first on B's disk).
      expect(await dvrBytesOn(node)).toBe(0);
      expect((await api('PUT', `/outputs/${low.id}`, { dvrWindowMinutes: 1 })).status).toBe(200);
      await waitFor(
        () => dvrBytesOn(node),
        (bytes) => bytes > 0,
        10_000,
        "the ladder's window on B's disk",
      );
    } finally {
      push.stop();
    }
  });

  it("keeps a rewind window on B from the stream's start, with no viewer there: a late viewer seeks back past its arrival", async () => {
    const node = edge as RunningNode;
    const stream = await createStream({ format: 'RTMP' });
    const rewind = await createOutput(stream.id, 'HLS', { hlsLatency: 'Low', dvrWindowMinutes: 1 });
    expect(rewind.node?.id).toBe(node.id);
    const push = pushTestPattern((stream.connection as { uri: string }).uri, 'flv', 30, { size: '160x120', rate: 10 });
    // The ladder's windows (the test before) may still be on B's disk: this one adds to them.
    const before = await dvrBytesOn(node);
    const kept = (pulls: EdgePull[]) => pulls.some((pull) => pull.inputId === stream.id && pull.kind === 'edge');
    try {
      await status(stream.id, 'Ingestion', 15_000);
      // Pulled for the window alone: no viewer asked.
      await waitFor(() => pullsOn(node), kept, 10_000, 'B to pull the stream for its rewind window');
      await waitFor(
        () => dvrBytesOn(node),
        (bytes) => bytes > before,
        15_000,
        "B's window on its disk",
      );
      // Low from the pull's start: the pull's own ffmpeg packages it, not a second one of B's LL-HLS pipeline (one
      // process start and one probe less before the first part, e.g. after B restarts: docs/chaos.md).
      expect(await llPipelineVariantsOn(node, stream.id)).toEqual([]);
      // Still pulled three idle times later (EDGE_IDLE_MS 1.5 s), though no viewer asked.
      for (const until = Date.now() + 4500; Date.now() < until; await sleep(500))
        expect(kept(await pullsOn(node))).toBe(true);
      const arrivedAt = Date.now();
      const opened = await fetch(rewind.connection?.uri ?? '', { redirect: 'manual' });
      expect(opened.status).toBe(302);
      const playlist = await (
        await fetch(new URL(opened.headers.get('location') ?? '', rewind.connection?.uri))
      ).text();
      const [first = ''] = /#EXT-X-PROGRAM-DATE-TIME:(\S+)/.exec(playlist)?.slice(1) ?? [];
      // The window on B begins seconds before this first viewer came (4.5 s of idle pulling above; a loaded run's
      // edge packaged 3 s of it in that time). Pulled only for the viewer, it would begin at its arrival.
      expect(arrivedAt - Date.parse(first), playlist).toBeGreaterThan(1500);
    } finally {
      push.stop();
    }
    // Its origin's end ends the kept pull too.
    await waitFor(
      () => pullsOn(node),
      (pulls) => !kept(pulls),
      15_000,
      "B's pull to end with the push",
    );
  });
});
