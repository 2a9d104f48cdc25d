import { spawn } from 'node:child_process';
import { type StreamInput, type StreamOutput, uriWithToken } from '@streamcloud/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RTCPeerConnection } from 'werift';
import { srtDataCopyArgs } from '../src/front-ends/srt/port.js';
import { offerSdp, type Push, playRtmp, pushTestPattern, sleep, waitFor } from './harness.js';
import { createSigningKey, mintToken, nowSeconds, type TestSigningKey } from './playback-tokens.js';
import { standardIfHls, streamsOf, uriOf, useMediaNode } from './streams.js';

/**
 * Issue 34: Signed outputs on a real node. Tokens are minted here as a customer's backend does (node:crypto, the
 * key's PKCS#8 PEM and its kid), played over HLS, WHEP and RTMP, refused with the reason a player shows, and
 * revoked from the API while a viewer plays. The node polls its streams only every 30 s: what reaches it within
 * 2 s was pushed. GEOIP_OVERRIDES gives the test's loopback address a country (France).
 */
const world = useMediaNode('media-1', { POLL_INTERVAL_MS: '30000', GEOIP_OVERRIDES: '127.0.0.1=FR' });
const { api, createStream, outputs, status } = streamsOf(world);

let key: TestSigningKey;
let stream: StreamInput;
let push: Push;
const signed: Partial<Record<'HLS' | 'WebRTC' | 'RTMP' | 'SRT', StreamOutput>> = {};
const outputOf = (format: keyof typeof signed) => signed[format] as StreamOutput;

const now = nowSeconds;
/** A playback token for `sub`, signed with the test's ES256 key (what sell-access.md's script does). */
const mint = (claims: Record<string, unknown>, kid = key.kid) => mintToken(key, claims, kid);

beforeAll(async () => {
  key = await createSigningKey(world);
  stream = await createStream({ format: 'RTMP' });
  for (const format of ['HLS', 'WebRTC', 'RTMP', 'SRT'] as const) {
    const output = await api<StreamOutput>('POST', '/outputs', {
      streamId: stream.id,
      format,
      access: 'Signed',
      ...standardIfHls(format),
    });
    expect(output.status).toBe(201);
    signed[format] = output.body;
  }
  push = pushTestPattern(uriOf(stream), 'flv', 120, { size: '160x120', rate: 10 });
  await status(stream.id, 'Ingestion', 15_000);
}, 60_000);
afterAll(async () => {
  push?.stop();
  await push?.exited;
});

const hlsUri = (token: string) => `${outputOf('HLS').connection?.uri}?${new URLSearchParams({ token })}`;
/** The first HLS request of a session, as a player on `origin` makes it. */
const openHls = (token: string, origin?: string) =>
  fetch(hlsUri(token), { redirect: 'manual', headers: origin ? { origin } : {} });
/** A session's playlist URL (after the redirect that gives it its id). */
async function hlsSession(token: string): Promise<URL> {
  const first = await openHls(token);
  expect(first.status, await first.clone().text()).toBe(302);
  return new URL(first.headers.get('location') ?? '', hlsUri(token));
}
const refusal = async (response: Response) => ({ status: response.status, body: await response.text() });
const refused = (message: string) => ({ status: 403, body: JSON.stringify({ message }) });

describe('HLS', () => {
  it('plays a signed token, and refuses each broken rule with its reason', async () => {
    const output = outputOf('HLS');
    const playlist = await hlsSession(mint({ sub: output.id, jti: 'hls-ok' }));
    const answer = await waitFor(
      async () => refusal(await fetch(playlist)),
      (got) => got.status === 200 && got.body.includes('.ts'),
      10_000,
      'a playlist with a fragment',
    );
    const fragment = new URL(
      answer.body.split('\n').find((line) => !line.startsWith('#') && line.includes('.ts')) ?? '',
      playlist,
    );
    expect((await fetch(fragment)).status).toBe(200);
    // The stream's id plays every output of the stream; the allowed address, country and page origin play.
    expect((await openHls(mint({ sub: stream.id }))).status).toBe(302);
    expect((await openHls(mint({ sub: output.id, ips: ['127.0.0.0/8'], countries: ['FR'] }))).status).toBe(302);
    const shop = mint({ sub: output.id, origins: ['https://shop.example'] });
    expect((await openHls(shop, 'https://shop.example')).status).toBe(302);

    const cases: [string, string, string?][] = [
      [output.viewer.accessToken ?? '', 'The token is not a valid playback token'],
      ['', 'The token is not a valid playback token'],
      [
        mint({ sub: output.id }, '00000000-0000-4000-8000-000000000000'),
        'The token was signed with a key this account does not have',
      ],
      [mint({ sub: output.id, exp: now() - 1 }), 'The token expired'],
      [mint({ sub: output.id, nbf: now() + 600 }), 'The token is not valid yet'],
      [mint({ sub: outputOf('RTMP').id }), 'The token is not for this video'],
      [mint({ sub: output.id, ips: ['203.0.113.7'] }), 'Not allowed from your network address'],
      [mint({ sub: output.id, countries: ['DE'] }), 'Not allowed from your country'],
      [shop, 'Not allowed on this website', 'https://evil.example'],
      [shop, 'Not allowed on this website'],
    ];
    for (const [token, message, origin] of cases) {
      expect(await refusal(await openHls(token, origin)), message).toEqual(refused(message));
    }
  });

  it('counts a token sessions (maxSessions), and ends a session at its maxSessionSeconds', async () => {
    const output = outputOf('HLS');
    const once = mint({ sub: output.id, jti: 'hls-once', maxSessions: 1, maxSessionSeconds: 3 });
    const first = await hlsSession(once);
    expect((await fetch(first)).status).toBe(200);
    // The session itself goes on; a second one is refused while it plays.
    expect((await fetch(first)).status).toBe(200);
    expect(await refusal(await openHls(once))).toEqual(refused('Too many sessions for this token'));
    const over = await waitFor(
      async () => refusal(await fetch(first)),
      (got) => got.status !== 200,
      8000,
      'the session cap',
    );
    expect(over).toEqual(refused('The viewing time this token allows is over'));
  });

  it('keeps a session started before expiry playing, while a new one is refused', async () => {
    const output = outputOf('HLS');
    const token = mint({ sub: output.id, jti: 'hls-expiring', exp: now() + 2 });
    const playing = await hlsSession(token);
    expect((await fetch(playing)).status).toBe(200);
    await waitFor(
      async () => (await openHls(token)).status,
      (code) => code === 403,
      8000,
      'the token to expire',
    );
    expect((await fetch(playing)).status).toBe(200);
  });

  it('ends a running viewer within 2 s of the revocation of its token id (pushed, the node polls every 30 s)', async () => {
    const output = outputOf('HLS');
    const playlist = await hlsSession(mint({ sub: output.id, jti: 'hls-revoked' }));
    expect((await fetch(playlist)).status).toBe(200);
    await waitFor(
      () => outputs(stream.id),
      (list) => (list.find((each) => each.id === output.id)?.sessions.length ?? 0) > 0,
      8000,
      'the session in the control plane',
    );
    const revokedAt = Date.now();
    expect((await api('POST', '/playback-tokens/revocations', { jti: 'hls-revoked' })).status).toBe(201);
    const ended = await waitFor(
      async () => refusal(await fetch(playlist)),
      (got) => got.status !== 200,
      2000,
      'the viewer refused',
    );
    const ms = Date.now() - revokedAt;
    console.info(`revocation of a token id: the HLS viewer refused ${ms} ms after the API call`);
    expect(ended).toEqual(refused('The token has been revoked'));
    expect(ms).toBeLessThan(2000);
  });
});

describe('WHEP', () => {
  const offer = (token: string, headers: Record<string, string> = {}) =>
    offerSdp('recvonly').then((sdp) =>
      fetch(outputOf('WebRTC').connection?.signallingUri ?? '', {
        method: 'POST',
        headers: { 'content-type': 'application/sdp', authorization: `Bearer ${token}`, ...headers },
        body: sdp,
      }),
    );

  it('answers an offer with a signed bearer token; refuses the static token and a wrong origin with 403 and the reason', async () => {
    const output = outputOf('WebRTC');
    const shop = mint({ sub: output.id, origins: ['https://shop.example'] });
    const answered = await offer(shop, { origin: 'https://shop.example' });
    expect(answered.status, await answered.clone().text()).toBe(201);
    expect(answered.headers.get('content-type')).toBe('application/sdp');
    await fetch(new URL(answered.headers.get('location') ?? '', output.connection?.signallingUri), {
      method: 'DELETE',
    });
    expect(await refusal(await offer(shop, { origin: 'https://evil.example' }))).toEqual({
      status: 403,
      body: expect.stringContaining('Not allowed on this website'),
    });
    expect(await refusal(await offer(output.viewer.accessToken ?? ''))).toEqual({
      status: 403,
      body: expect.stringContaining('The token is not a valid playback token'),
    });
  });
});

describe('WHEP viewer', () => {
  const sessionsOfWhep = async () =>
    (await outputs(stream.id)).find((each) => each.id === outputOf('WebRTC').id)?.sessions.length ?? 0;

  it('plays to a werift viewer until its token id is revoked: the peer is closed within 2 s', async () => {
    const pc = new RTCPeerConnection({ iceAdditionalHostAddresses: ['127.0.0.1'], iceUseIpv6: false });
    pc.addTransceiver('video', { direction: 'recvonly' });
    pc.addTransceiver('audio', { direction: 'recvonly' });
    let packets = 0;
    pc.onTrack.subscribe((track) => track.onReceiveRtp.subscribe(() => packets++));
    try {
      await pc.setLocalDescription(await pc.createOffer());
      const answer = await fetch(outputOf('WebRTC').connection?.signallingUri ?? '', {
        method: 'POST',
        headers: {
          'content-type': 'application/sdp',
          authorization: `Bearer ${mint({ sub: outputOf('WebRTC').id, jti: 'whep-1' })}`,
        },
        body: pc.localDescription?.sdp ?? '',
      });
      expect(answer.status).toBe(201);
      await pc.setRemoteDescription({ type: 'answer', sdp: await answer.text() });
      await waitFor(
        async () => packets,
        (count) => count > 0,
        15_000,
        'the first packets',
      );
      await waitFor(sessionsOfWhep, (count) => count === 1, 8000, 'the WHEP viewer session');
      const revokedAt = Date.now();
      expect((await api('POST', '/playback-tokens/revocations', { jti: 'whep-1' })).status).toBe(201);
      await waitFor(sessionsOfWhep, (count) => count === 0, 2000, 'the WHEP session ended');
      const before = packets;
      await sleep(1000);
      console.info(`revocation of a token id: the WHEP session ended within ${Date.now() - revokedAt - 1000} ms`);
      // Nothing more is sent to the closed peer.
      expect(packets - before).toBeLessThan(5);
    } finally {
      await pc.close();
    }
  });
});

describe('SRT', () => {
  const sessionsOfSrt = async () =>
    (await outputs(stream.id)).find((each) => each.id === outputOf('SRT').id)?.sessions.length ?? 0;
  /** An SRT caller reading what it gets (and dropping it), with the token in its stream id. */
  const srtPlayer = (token: string) => {
    const url = uriWithToken(outputOf('SRT').connection?.uri ?? '', token);
    const child = spawn('ffmpeg', srtDataCopyArgs(url, 'pipe:1'), { stdio: ['ignore', 'pipe', 'ignore'] });
    child.stdout.resume();
    return {
      exited: new Promise((resolve) => child.once('exit', resolve)),
      stop: () => child.kill('SIGKILL'),
    };
  };

  it('plays a signed token in the stream id; refuses one for another output', async () => {
    const wrong = srtPlayer(mint({ sub: outputOf('HLS').id }));
    const player = srtPlayer(mint({ sub: outputOf('SRT').id, jti: 'srt-1' }));
    try {
      expect(await Promise.race([wrong.exited, sleep(10_000).then(() => 'still playing')])).not.toBe('still playing');
      await waitFor(sessionsOfSrt, (count) => count === 1, 10_000, 'the SRT viewer session');
    } finally {
      wrong.stop();
      player.stop();
    }
  });
});

describe('RTMP', () => {
  const rtmpUri = (token: string) => `${outputOf('RTMP').connection?.uri}?token=${encodeURIComponent(token)}`;
  const sessionsOfRtmp = async () =>
    (await outputs(stream.id)).find((each) => each.id === outputOf('RTMP').id)?.sessions.length ?? 0;

  it('plays a signed token until its key is revoked; refuses an expired one', async () => {
    const expired = playRtmp(rtmpUri(mint({ sub: outputOf('RTMP').id, exp: now() - 5 })), 10);
    expect(await Promise.race([expired.exited, sleep(8000).then(() => 'still playing')])).not.toBe('still playing');
    expect(await sessionsOfRtmp()).toBe(0);

    const player = playRtmp(rtmpUri(mint({ sub: outputOf('RTMP').id, jti: 'rtmp-1' })), 60);
    try {
      await waitFor(sessionsOfRtmp, (count) => count === 1, 10_000, 'the RTMP viewer session');
      // Revoking the key drops the player: the node is told at once and disconnects it.
      const revokedAt = Date.now();
      expect((await api('DELETE', `/playback-keys/${key.kid}`)).status).toBe(204);
      expect(await Promise.race([player.exited, sleep(5000).then(() => 'still playing')])).not.toBe('still playing');
      console.info(`revocation of a key: the RTMP player dropped ${Date.now() - revokedAt} ms after the API call`);
    } finally {
      player.stop();
    }
  });
});
