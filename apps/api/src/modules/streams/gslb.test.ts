import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { TestClock, useTestApp } from '../../../test/helpers.js';

/** GSLB that routes: a push to a stream's `as+<uuid>` name moves the stream to the node it reached; WHIP redirects. */
const clock = new TestClock();
// Publishers reach the control plane through a TLS front end on 8443 (GSLB_URL).
const t = useTestApp({ clock, gslbUrl: 'https://gslb.example.com:8443' }, { roles: true });
const claim = (name: string, token?: string) =>
  t.request({ method: 'POST', url: '/api/v1/node/ingress/claim', payload: { name }, ...(token ? { token } : {}) });
const endpoint = async (streamId: string): Promise<{ name: string; connection: { uri: string } }> =>
  (await t.request({ method: 'GET', url: `/api/v1/gslb/input/stream/${streamId}`, token: t.roles.owner.token })).json();
const ingressName = async (streamId: string): Promise<string> => (await endpoint(streamId)).name;
const read = async (streamId: string) =>
  (await t.request({ method: 'GET', url: `/api/v1/inputs/${streamId}`, token: t.roles.owner.token })).json();

describe('POST /node/ingress/claim', () => {
  it('moves a stream that is not live to the calling node, refuses while it is live, and answers 401/404/400', async () => {
    const a = await t.createNode(t.roles.admin, { name: 'node-a' });
    const stream = await t.createInput({ format: 'RTMP', gslb: true });
    expect(stream.nodeId).toBe(a.id);
    const b = await t.createNode(t.roles.admin, { name: 'node-b' });
    const name = await ingressName(stream.id);

    expect((await claim(name)).statusCode).toBe(401);
    expect((await claim(name, t.roles.owner.token)).statusCode).toBe(401);
    expect((await claim(name, t.roles.admin.token)).statusCode).toBe(401);
    expect((await claim(`as+${randomUUID()}`, b.token)).statusCode).toBe(404);
    const empty = await claim('', b.token);
    expect(empty.statusCode).toBe(400);
    expect(empty.json().errors).toContainEqual({ path: 'body.name', message: 'Name is required' });
    expect((await read(stream.id)).nodeId).toBe(a.id);

    const moved = await claim(name.toUpperCase(), b.token);
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json()).toMatchObject({ id: stream.id, ingressName: name, format: 'RTMP' });
    const after = await read(stream.id);
    expect(after).toMatchObject({ nodeId: b.id, status: 'Idle' });
    expect(after.statusMessages[0].text).toBe('Moved to node node-b: a push to its GSLB name arrived there');
    // The node it is on claims it again: nothing changes.
    expect((await claim(name, b.token)).statusCode).toBe(200);
    expect((await read(stream.id)).statusMessages[0].text).toBe(after.statusMessages[0].text);

    const live = await t.report(b.token, [
      { id: randomUUID(), kind: 'stream-state', streamId: stream.id, status: 'Ingestion' },
    ]);
    expect(live.statusCode).toBe(200);
    const refused = await claim(name, a.token);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe('The stream is live on another node: a second push is refused');
    expect(await read(stream.id)).toMatchObject({ nodeId: b.id, status: 'Ingestion' });
  });
  it('gives a stream claimed by two nodes at once to exactly one of them; the other is refused', async () => {
    const a = await t.createNode(t.roles.admin, { name: 'node-a' });
    const stream = await t.createInput({ format: 'RTMP', gslb: true });
    expect(stream.nodeId).toBe(a.id);
    const b = await t.createNode(t.roles.admin, { name: 'node-b' });
    const c = await t.createNode(t.roles.admin, { name: 'node-c' });
    const name = await ingressName(stream.id);

    const answers = await Promise.all([claim(name, b.token), claim(name, c.token)]);
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 409]);
    const winner = answers[0].statusCode === 200 ? b : c;
    const loser = answers.find((answer) => answer.statusCode === 409);
    expect(loser?.json().message).toBe(
      'A push to this name reached another node a moment ago: a second push is refused',
    );
    const after = await read(stream.id);
    expect(after).toMatchObject({ nodeId: winner.id, status: 'Idle' });
    const moves = after.statusMessages.filter((message: { text: string }) => message.text.startsWith('Moved to node'));
    expect(moves.map((message: { text: string }) => message.text)).toEqual([
      `Moved to node ${winner === b ? 'node-b' : 'node-c'}: a push to its GSLB name arrived there`,
    ]);
    // The winner's push never went live: 10 s later another node's push may have the stream.
    const other = winner === b ? c : b;
    clock.advance(10_001);
    expect((await claim(name, other.token)).statusCode).toBe(200);
    expect((await read(stream.id)).nodeId).toBe(other.id);
  });
});

describe('POST /whip/:name (WHIP at the GSLB URL)', () => {
  it("answers anyone 307 to the chosen node's WHIP URL, 404 for an unknown name", async () => {
    const node = await t.createNode(t.roles.admin, {
      connection: { protocol: 'HTTP', hostname: 'edge.example.com', port: 4343 },
    });
    const stream = await t.createInput({ format: 'WebRTC', gslb: true });
    const name = await ingressName(stream.id);
    const whip = (path: string) =>
      t.request({ method: 'POST', url: path, headers: { 'content-type': 'application/sdp' }, payload: 'v=0\r\n' });
    // The address shown is the control plane's (GSLB_URL), where the 307 comes from; RTMP goes to GSLB_HOSTNAME.
    const shown = (await endpoint(stream.id)).connection.uri;
    expect(shown).toBe(`https://gslb.example.com:8443/whip/${encodeURIComponent(name)}`);
    const rtmp = await t.createInput({ format: 'RTMP', gslb: true });
    const rtmpEndpoint = await endpoint(rtmp.id);
    expect(rtmpEndpoint.connection.uri).toBe(`rtmp://localhost:1935/live/${encodeURIComponent(rtmpEndpoint.name)}`);
    const redirected = await whip(new URL(shown).pathname);
    expect(redirected.statusCode).toBe(307);
    expect(redirected.headers.location).toBe(`http://edge.example.com:4343/whip/${encodeURIComponent(name)}`);
    expect(node.id).toBe(stream.nodeId);
    expect((await whip(`/whip/as%2B${randomUUID()}`)).statusCode).toBe(404);
  });
});
