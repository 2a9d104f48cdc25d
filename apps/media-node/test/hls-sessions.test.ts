import type { PreviewCredential, StreamInput, StreamOutput } from '@streamcloud/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nodeMetadata, type Push, pushTestPattern, seededRandom, waitFor } from './harness.js';
import { STANDARD_HLS, streamsOf, uriOf, useMediaNode } from './streams.js';

/**
 * HLS session ids and preview credentials as a hostile viewer uses them (issue 41, defects 2 and 3): a session id
 * is bound to the output and credential it was opened with, and one preview credential plays two sessions at most.
 */
const world = useMediaNode('media-1', { REPORT_INTERVAL_MS: '500' });
const { api, createStream, createOutput, outputs, usage, status } = streamsOf(world);

interface Live {
  stream: StreamInput;
  output: StreamOutput;
  push: Push;
}
const live: Live[] = [];

/** A short, small Private push with an HLS output. */
async function startLive(): Promise<Live> {
  const stream = await createStream({ format: 'RTMP', access: 'Private' });
  const output = await createOutput(stream.id, 'HLS', STANDARD_HLS);
  const push = pushTestPattern(`${uriOf(stream)}?token=${stream.accessToken}`, 'flv', 40, {
    size: '160x120',
    rate: 10,
  });
  return { stream, output, push };
}

beforeAll(async () => {
  live.push(await startLive(), await startLive());
  for (const { stream } of live) await status(stream.id, 'Ingestion', 15_000);
}, 60_000);
afterAll(async () => {
  for (const { push } of live) {
    push.stop();
    await push.exited;
  }
});

const withToken = (output: StreamOutput, token = output.viewer.accessToken ?? '') =>
  `${output.connection?.uri}?${new URLSearchParams({ token })}`;

/** Opens a session (the redirect); answers its playlist URL. */
async function open(uri: string): Promise<URL> {
  const first = await fetch(uri, { redirect: 'manual' });
  expect(first.status, await first.clone().text()).toBe(302);
  return new URL(first.headers.get('location') ?? '', uri);
}

/** The playlist at `url` and its first fragment's URL (waiting for a fragment); the bytes read. */
async function playlist(url: URL): Promise<{ fragment: URL; bytes: number }> {
  const { text } = await waitFor(
    async () => {
      const response = await fetch(url, { redirect: 'manual' });
      return { status: response.status, text: await response.text() };
    },
    (answer) => answer.status === 200 && answer.text.includes('.ts'),
    10_000,
    'a playlist with a fragment',
  );
  const line = text.split('\n').find((each) => each && !each.startsWith('#')) ?? '';
  return { fragment: new URL(line, url), bytes: Buffer.byteLength(text) };
}

const bytesOf = async (url: URL) => {
  const response = await fetch(url, { redirect: 'manual' });
  return { status: response.status, bytes: (await response.arrayBuffer()).byteLength };
};

/** `url` with another session id. */
const withSid = (url: URL, sid: string) => {
  const moved = new URL(url);
  moved.searchParams.set('sid', sid);
  return moved;
};

describe('HLS session ids (defect 2)', () => {
  it("are unguessable and bound to their output: another stream's playlist and fragments bill nothing to them", async () => {
    const [a, b] = live as [Live, Live];
    // A viewer of A: a session, its playlist and a fragment.
    const aUrl = await open(withToken(a.output));
    const sidA = aUrl.searchParams.get('sid') ?? '';
    expect(sidA).toMatch(/^hls-[\w-]{22}\.[\w-]{22}$/);
    const aPlaylist = await playlist(aUrl);
    const aFragment = await bytesOf(aPlaylist.fragment);
    expect(aFragment.status).toBe(200);
    const billedToA = aPlaylist.bytes + aFragment.bytes;

    // The same viewer on B with A's session id: the playlist is a new session of B, the fragments refused.
    const bUri = new URL(withToken(b.output));
    const moved = await fetch(withSid(new URL(`index.m3u8${bUri.search}`, bUri), sidA), { redirect: 'manual' });
    expect(moved.status).toBe(302);
    const bUrl = new URL(moved.headers.get('location') ?? '', bUri);
    const sidB = bUrl.searchParams.get('sid') ?? '';
    expect(sidB).not.toBe(sidA);
    const bPlaylist = await playlist(bUrl);
    const stolen = await bytesOf(withSid(bPlaylist.fragment, sidA));
    expect(stolen.status).toBe(403);
    // An altered id is refused alike.
    expect((await bytesOf(withSid(bPlaylist.fragment, `${sidA.slice(0, -2)}AA`))).status).toBe(403);
    const own = await bytesOf(bPlaylist.fragment);
    expect(own.status).toBe(200);
    const billedToB = bPlaylist.bytes + own.bytes;

    // What each stream is billed: its own bytes, to the byte.
    const usageOf = async () => Promise.all([usage(a.stream.id), usage(b.stream.id)]);
    const [onA, onB] = await waitFor(
      usageOf,
      ([ua, ub]) => ua.outgoing >= billedToA && ub.outgoing >= billedToB,
      10_000,
      'the viewers billed',
    );
    expect(onA.outgoing).toBe(billedToA);
    expect(onB.outgoing).toBe(billedToB);
    // And each session shows under its own output only.
    const [outA] = await outputs(a.stream.id);
    const [outB] = await outputs(b.stream.id);
    expect(outA?.sessions.map((session) => session.id)).toEqual([sidA]);
    expect(outB?.sessions.map((session) => session.id)).toEqual([sidB]);
  });
});

const credential = async (streamId: string) =>
  (await api<PreviewCredential>('POST', `/inputs/${streamId}/preview`)).body.token;

describe('preview credentials (defect 3)', () => {
  it('a session opened with a preview credential and continued with the viewer token is a new, billed session', async () => {
    const [a] = live as [Live, Live];
    const preview = await credential(a.stream.id);
    const previewUrl = await open(withToken(a.output, preview));
    const sidPreview = previewUrl.searchParams.get('sid') ?? '';
    const { fragment } = await playlist(previewUrl);
    expect((await bytesOf(fragment)).status).toBe(200);
    const before = await usage(a.stream.id);

    // The viewer token with the preview's session id: the playlist moves to a new session, the fragment is refused.
    const token = a.output.viewer.accessToken ?? '';
    const switched = new URL(previewUrl);
    switched.searchParams.set('token', token);
    const moved = await fetch(switched, { redirect: 'manual' });
    expect(moved.status).toBe(302);
    const viewerUrl = new URL(moved.headers.get('location') ?? '', switched);
    expect(viewerUrl.searchParams.get('sid')).not.toBe(sidPreview);
    const fragmentWithToken = new URL(fragment);
    fragmentWithToken.searchParams.set('token', token);
    expect((await bytesOf(fragmentWithToken)).status).toBe(403);
    // As a viewer it is billed.
    const asViewer = await playlist(viewerUrl);
    const served = await bytesOf(asViewer.fragment);
    expect(served.status).toBe(200);
    await waitFor(
      () => usage(a.stream.id),
      (found) => found.outgoing >= before.outgoing + asViewer.bytes + served.bytes,
      10_000,
      'the viewer session billed',
    );
  });

  it('one preview credential plays two sessions at once; the third is refused (429), and the node counts previews', async () => {
    const [, b] = live as [Live, Live];
    const preview = await credential(b.stream.id);
    const first = await open(withToken(b.output, preview));
    const second = await open(withToken(b.output, preview));
    expect((await playlist(first)).bytes).toBeGreaterThan(0);
    const secondPlaylist = await playlist(second);
    expect((await bytesOf(secondPlaylist.fragment)).status).toBe(200);
    const third = await open(withToken(b.output, preview));
    const refused = await fetch(third);
    expect(refused.status).toBe(429);
    expect(((await refused.json()) as { message: string }).message).toBe(
      'This preview credential already plays 2 sessions: close one, or wait for it to end',
    );
    // Over WHEP too: the credential's seats are taken.
    const whep = await createOutput(b.stream.id, 'WebRTC');
    const offer = await fetch(whep.connection?.signallingUri ?? '', {
      method: 'POST',
      headers: { 'content-type': 'application/sdp', authorization: `Bearer ${preview}` },
      body: 'v=0\r\n',
    });
    expect(offer.status).toBe(429);
    // Another credential of the stream plays (one signed a second later: the same second signs the same one).
    const another = await waitFor(
      () => credential(b.stream.id),
      (token) => token !== preview,
      5000,
      'another preview credential',
    );
    expect((await fetch(await open(withToken(b.output, another)))).status).toBe(200);
    const metadata = await nodeMetadata<{
      previews: { sessions: number; bytesOut: number; refused: number; perCredential: number };
    }>(world.node);
    expect(metadata.previews).toMatchObject({ perCredential: 2 });
    expect(metadata.previews.sessions).toBeGreaterThanOrEqual(3);
    expect(metadata.previews.refused).toBeGreaterThanOrEqual(2);
    expect(metadata.previews.bytesOut).toBeGreaterThan(secondPlaylist.bytes);
    // The control plane shows the previews of the output apart from its (billed) sessions.
    await waitFor(
      () => outputs(b.stream.id),
      (found) => found.find((output) => output.id === b.output.id)?.previews === 3,
      8000,
      'the previews in the control plane',
    );
  });
});

describe('billing integrity', () => {
  it('for any interleaving of sessions, tokens and outputs, each stream is billed what it sent, never another’s', async () => {
    const seed = Number(process.env.BILLING_FUZZ_SEED ?? Date.now() % 100_000);
    const next = seededRandom(seed);
    const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T;
    const streams = live as [Live, Live];
    const previews = await Promise.all(streams.map(({ stream }) => credential(stream.id)));
    const baseline = await Promise.all(streams.map(({ stream }) => usage(stream.id)));
    /** What each stream sent to viewers (200 answers with a viewer token), by index. */
    const sent = [0, 0];
    const sessions: { url: URL }[] = [];
    const fragments: (string | null)[] = [null, null];
    /** A request of stream `t` with a session's id (or none) and a credential (its own, a preview, another's). */
    const ask = async (t: number, file: string, sid: string | null, token: string) => {
      const uri = new URL(streams[t]?.output.connection?.uri ?? '');
      const url = new URL(file, uri);
      url.searchParams.set('token', token);
      if (sid) url.searchParams.set('sid', sid);
      const response = await fetch(url, { redirect: 'manual' });
      const body = Buffer.from(await response.arrayBuffer());
      if (response.status === 302) sessions.push({ url: new URL(response.headers.get('location') ?? '', url) });
      if (response.status === 200) {
        // Bytes a viewer got are owed by the stream they came from; a preview's are owed by nobody.
        if (token === streams[t]?.output.viewer.accessToken) sent[t] = (sent[t] ?? 0) + body.length;
        else expect(previews).toContain(token);
        const fragment = body
          .toString()
          .split('\n')
          .find((line) => line.endsWith('.ts') || line.includes('.ts?'));
        if (fragment) fragments[t] = fragment.split('?')[0] ?? null;
      }
      return response.status;
    };
    const tokens = (t: number) => [
      streams[t]?.output.viewer.accessToken ?? '',
      streams[1 - t]?.output.viewer.accessToken ?? '',
      previews[t] ?? '',
    ];
    const statuses = new Map<number, number>();
    for (let step = 0; step < 60; step++) {
      const t = Math.floor(next() * 2);
      const session = sessions.length > 0 && next() < 0.8 ? pick(sessions) : null;
      const sid = session?.url.searchParams.get('sid') ?? null;
      const token = next() < 0.7 && session ? (session.url.searchParams.get('token') ?? '') : pick(tokens(t));
      const file = fragments[t] && next() < 0.5 ? (fragments[t] ?? '') : 'index.m3u8';
      const status = await ask(t, file, sid, token);
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
    }
    // The interleaving met every kind of answer worth testing.
    expect([...statuses.keys()], `seed ${seed}`).toEqual(expect.arrayContaining([200, 302, 403]));
    const billed = await waitFor(
      () => Promise.all(streams.map(({ stream }) => usage(stream.id))),
      (now) => now.every((found, i) => found.outgoing - (baseline[i]?.outgoing ?? 0) >= (sent[i] ?? 0)),
      10_000,
      `every stream billed what it sent (seed ${seed})`,
    );
    billed.forEach((found, i) => {
      const delta = found.outgoing - (baseline[i]?.outgoing ?? 0);
      expect(Math.abs(delta - (sent[i] ?? 0)), `stream ${i}, seed ${seed}`).toBeLessThanOrEqual((sent[i] ?? 0) * 0.005);
    });
  });
});
