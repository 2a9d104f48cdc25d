import { request as httpRequest } from 'node:http';
import type { PreviewCredential, StreamInput, StreamOutput } from '@streamcloud/contract';
import { nodeControlKeyOf, nodeTokenHash, signNodeControl } from '@streamcloud/contract/node-control-credential';
import { beforeAll, describe, expect, it } from 'vitest';
import { NODE_ROUTES, type NodeRoute, type RouteName } from '../src/front-ends/http/routes.js';
import { connectControlPlane, ffmpeg, nodeMetadata, playRtmp, pushTestPattern, sleep } from './harness.js';
import { STANDARD_HLS, streamsOf, useMediaNode } from './streams.js';

/**
 * The media node's security suite, generated from its table of routes (src/front-ends/http/routes.ts): every route and
 * method × every kind of caller (none, a viewer token of another output, a preview credential, a node credential
 * of another node, the right one), the CORS each answers with, and names with traversal and other tenants'
 * names for each protocol. A route added to the table is probed here the day it is added.
 */
const world = useMediaNode('security-1');
const { api, createStream, createOutput } = streamsOf(world);

type Caller = 'none' | 'otherViewer' | 'preview' | 'otherNode' | 'right';
const CALLERS: readonly Caller[] = ['none', 'otherViewer', 'preview', 'otherNode', 'right'];

interface Fixture {
  /** Stream A (Private, RTMP) with an HLS and a WebRTC output; W (Private, WebRTC) is pushed over WHIP. */
  hls: StreamOutput;
  whep: StreamOutput;
  whip: StreamInput;
  /** Another tenant's Private stream, its output and its names. */
  foreign: StreamInput;
  foreignOutput: StreamOutput;
  previewOfA: string;
  previewOfW: string;
  otherNodeToken: string;
}
const f = {} as Fixture;

beforeAll(async () => {
  const a = await createStream({ format: 'RTMP', access: 'Private' });
  f.hls = await createOutput(a.id, 'HLS', STANDARD_HLS);
  f.whep = await createOutput(a.id, 'WebRTC');
  f.whip = await createStream({ format: 'WebRTC', access: 'Private' });
  const preview = async (id: string) => (await api<PreviewCredential>('POST', `/inputs/${id}/preview`)).body.token;
  f.previewOfA = await preview(a.id);
  f.previewOfW = await preview(f.whip.id);
  // Another tenant: a USER account with a Private stream and a WebRTC output of its own.
  const username = `tenant-${Date.now()}`;
  const password = 'tenant-password-1';
  expect((await api('POST', '/accounts', { username, password, role: 'USER' })).status).toBe(201);
  const login = await fetch(`${world.plane.url}/api/v1/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password }),
  });
  const tenant = connectControlPlane(world.plane.url, ((await login.json()) as { token: string }).token);
  const foreign = await tenant.api<StreamInput>('POST', '/inputs', {
    format: 'RTMP',
    access: 'Private',
    output: { passthrough: true },
  });
  expect(foreign.status).toBe(201);
  f.foreign = foreign.body;
  const output = await tenant.api<StreamOutput>('POST', '/outputs', { streamId: f.foreign.id, format: 'WebRTC' });
  expect(output.status).toBe(201);
  f.foreignOutput = output.body;
  // Another node: registered, never run; only its token matters.
  const other = await api<{ token: string }>('POST', '/nodes', {
    name: 'security-other',
    connection: { protocol: 'HTTP', hostname: '127.0.0.1', port: 9 },
  });
  f.otherNodeToken = other.body.token;
});

/** A raw request (no URL normalisation: `..` reaches the node as sent). */
function send(
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body = '',
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; text: string }> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      {
        host: '127.0.0.1',
        port: world.node.port,
        method,
        path,
        headers: { ...headers, 'content-length': body.length },
      },
      (response) => {
        let text = '';
        response.on('data', (chunk: Buffer) => {
          text += chunk.toString();
        });
        response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, text }));
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

const nodeCredential = (token: string, method: string, path: string, body: string) =>
  signNodeControl(nodeControlKeyOf(nodeTokenHash(token)), { method, path, body });

/** What a caller presents on a route: a bearer token (control, WHEP, WHIP) or `?token=` (HLS). */
function credentialOf(route: RouteName, caller: Caller, method: string, path: string, body: string): string | null {
  const access = NODE_ROUTES[route].access;
  switch (caller) {
    case 'none':
      return null;
    case 'otherViewer':
      return f.foreignOutput.viewer.accessToken;
    case 'preview':
      return route === 'whip' ? f.previewOfW : f.previewOfA;
    case 'otherNode':
      return nodeCredential(f.otherNodeToken, method, path, body);
    case 'right':
      if (access === 'control') return nodeCredential(world.node.token, method, path, body);
      if (route === 'hls') return f.hls.viewer.accessToken;
      if (route === 'whep') return f.whep.viewer.accessToken;
      return f.whip.accessToken;
  }
}

/** The request a route's example makes for `method` (a session's URL for DELETE and PATCH). */
function probe(route: RouteName, method: string): { path: string; body: string; type?: string } {
  const path = NODE_ROUTES[route].example
    .replace('{output}', encodeURIComponent(route === 'hls' ? f.hls.name : f.whep.name))
    .replace('{stream}', encodeURIComponent(f.whip.name))
    .replace('{secret}', 'not-the-secret');
  if (method === 'DELETE' || method === 'PATCH') return { path: `${path}/${'ab'.repeat(16)}`, body: '' };
  if (route === 'refresh') return { path, body: JSON.stringify({ mode: 'Sessions' }), type: 'application/json' };
  if (route === 'whep' || route === 'whip') return { path, body: 'v=0\r\n', type: 'application/sdp' };
  return { path, body: '' };
}

/**
 * What each caller gets: a control route answers the right node credential only (401 else); a viewer route its
 * output's token and a preview credential of its stream; a publisher route its stream's access token; nginx's
 * hooks nobody from outside (404). "Admitted" is an answer past the credential check (the stream is not live, or
 * the offer is not a real one); a session id that does not exist is 404 (DELETE) or 405 (PATCH) to anyone.
 */
function expected(route: RouteName, method: string, caller: Caller): number | 'admitted' {
  const { access } = NODE_ROUTES[route] as NodeRoute;
  if (access === 'internal') return 404;
  if (method === 'DELETE') return 404;
  if (method === 'PATCH') return 405;
  if (access === 'control') return caller === 'right' ? 200 : 401;
  const admitted = caller === 'right' || (access === 'viewer' && caller === 'preview');
  if (admitted) return 'admitted';
  return route === 'hls' ? 403 : 401;
}

const cases = (Object.keys(NODE_ROUTES) as RouteName[]).flatMap((route) =>
  NODE_ROUTES[route].methods.flatMap((method) =>
    CALLERS.filter((caller) => !(NODE_ROUTES[route].access === 'internal' && caller === 'right')).map((caller) => ({
      route,
      method,
      caller,
    })),
  ),
);

describe('every route of the node × every kind of caller', () => {
  it.each(cases)('$method $route by $caller', async ({ route, method, caller }) => {
    const { path, body, type } = probe(route, method);
    const credential = credentialOf(route, caller, method, path, body);
    const viaQuery = route === 'hls' && credential !== null;
    const url = viaQuery ? `${path}?${new URLSearchParams({ token: credential })}` : path;
    const headers: Record<string, string> = type ? { 'content-type': type } : {};
    if (credential !== null && !viaQuery) headers.authorization = `Bearer ${credential}`;
    const answer = await send(method, url, headers, body);
    const want = expected(route, method, caller);
    if (want === 'admitted') {
      expect([401, 403], answer.text).not.toContain(answer.status);
      expect(answer.status, answer.text).toBeLessThan(500);
    } else {
      expect(answer.status, answer.text).toBe(want);
    }
    // CORS only where the table says: never on the control API.
    const cors = answer.headers['access-control-allow-origin'];
    expect(cors ?? null).toBe(NODE_ROUTES[route].cors ? '*' : null);
  });

  it('an EmergencyCleanup from anyone but the control plane changes nothing (defect 1 of issue 41)', async () => {
    const cleanup = JSON.stringify({ mode: 'EmergencyCleanup' });
    const anonymous = await send('POST', '/refresh', { 'content-type': 'application/json' }, cleanup);
    expect(anonymous.status).toBe(401);
    const metadata = await send('GET', '/metadata', {
      authorization: `Bearer ${nodeCredential(world.node.token, 'GET', '/metadata', '')}`,
    });
    expect(metadata.status).toBe(200);
    expect(JSON.parse(metadata.text)).toMatchObject({ emergencyCleanup: false });
    expect((await send('GET', '/metadata')).status).toBe(401);
  });

  it("refuses a control credential replayed for another call, and a node's raw token", async () => {
    const signedForMetadata = nodeCredential(world.node.token, 'GET', '/metadata', '');
    const refresh = JSON.stringify({ mode: 'EmergencyCleanup' });
    const replayed = await send(
      'POST',
      '/refresh',
      { 'content-type': 'application/json', authorization: `Bearer ${signedForMetadata}` },
      refresh,
    );
    expect(replayed.status).toBe(401);
    const raw = await send('GET', '/metadata', { authorization: `Bearer ${world.node.token}` });
    expect(raw.status).toBe(401);
    expect(raw.text).not.toContain(world.node.token);
  });

  it.each(Object.keys(NODE_ROUTES) as RouteName[])(
    'answers the CORS preflight of %s as the table says',
    async (name) => {
      const route = NODE_ROUTES[name] as NodeRoute;
      const { path } = probe(name, route.methods[0] ?? 'GET');
      const answer = await send('OPTIONS', path, {
        origin: 'https://evil.example',
        'access-control-request-method': 'POST',
      });
      if (route.cors) {
        expect(answer.status).toBe(204);
        expect(answer.headers['access-control-allow-origin']).toBe('*');
        expect(answer.headers['access-control-allow-methods']).toBe([...route.methods, 'OPTIONS'].join(', '));
      } else {
        expect(answer.headers['access-control-allow-origin']).toBeUndefined();
        expect(answer.headers['access-control-allow-methods']).toBeUndefined();
        expect(answer.status).not.toBe(204);
      }
    },
  );

  it('answers 404 to a path of no route, and 405 to a method a route does not take', async () => {
    expect((await send('GET', '/')).status).toBe(404);
    expect((await send('GET', '/metadata/x')).status).toBe(404);
    expect((await send('GET', '/admin')).status).toBe(404);
    expect((await send('DELETE', '/metadata')).status).toBe(405);
    expect((await send('PUT', `/hls/${f.hls.name}/index.m3u8`)).status).toBe(405);
  });
});

describe('names with traversal and other tenants’ names', () => {
  const traversal = (name: string) => [
    `..%2F${encodeURIComponent(name)}`,
    `..%2F..%2F..%2Fetc%2Fpasswd`,
    `${encodeURIComponent(name)}%2F..%2F..`,
    '%2e%2e',
  ];

  it('HLS: traversal in the output, rendition or file, and another tenant’s output with our token', async () => {
    const token = `?token=${encodeURIComponent(f.hls.viewer.accessToken ?? '')}`;
    const paths = [
      ...traversal(f.foreignOutput.name).map((name) => `/hls/${name}/index.m3u8${token}`),
      `/hls/${encodeURIComponent(f.hls.name)}/..%2F..%2F${f.foreign.id}%2Findex.m3u8${token}`,
      `/hls/${encodeURIComponent(f.hls.name)}/../${encodeURIComponent(f.foreignOutput.name)}/index.m3u8${token}`,
      `/hls/${encodeURIComponent(f.hls.name)}/..%2F..%2F..%2Fetc/passwd${token}`,
      `/hls/${encodeURIComponent(f.hls.name)}/r0/..%2Findex.m3u8${token}`,
      `/hls/${encodeURIComponent(f.foreignOutput.name)}/index.m3u8${token}`,
      `/hls/${encodeURIComponent(f.foreign.name)}/index.m3u8`,
    ];
    for (const path of paths) {
      const answer = await send('GET', path);
      expect([403, 404], `${path}: ${answer.text}`).toContain(answer.status);
      expect(answer.text).not.toContain('root:');
    }
  });

  it.each(['whep', 'whip'] as const)('%s: traversal and another tenant’s name with our token', async (route) => {
    const ours = route === 'whep' ? f.whep.viewer.accessToken : f.whip.accessToken;
    const names = [...traversal(route === 'whep' ? f.foreignOutput.name : f.foreign.name), f.foreign.name];
    if (route === 'whep') names.push(encodeURIComponent(f.foreignOutput.name));
    for (const name of names) {
      const answer = await send(
        'POST',
        `/${route}/${name}`,
        { 'content-type': 'application/sdp', authorization: `Bearer ${ours}` },
        'v=0\r\n',
      );
      expect([401, 404], `${route}/${name}: ${answer.text}`).toContain(answer.status);
    }
  });
});

describe('RTMP, SRT and RTSP: traversal and other tenants’ names with our tokens', () => {
  it('refuses every push and play of them, and the other tenant’s stream sees nothing', async () => {
    const { mediaPorts } = await nodeMetadata<{
      mediaPorts: { rtmp: number; srt: number; rtsp: number; srtPlayback: number };
    }>(world.node);
    const foreign = f.foreign.name;
    const names = [
      `../${foreign}`,
      `${encodeURIComponent(f.whip.name)}%2F..%2F${encodeURIComponent(foreign)}`,
      foreign,
    ];
    const pushToken = f.whip.accessToken ?? '';
    const playToken = f.whep.viewer.accessToken ?? '';
    const srtId = (name: string, token: string) => encodeURIComponent(`${name}?token=${token}`);
    const small = { size: '64x48', rate: 5 };
    const attempts = names.flatMap((name) => [
      {
        what: `RTMP push ${name}`,
        run: () =>
          pushTestPattern(`rtmp://127.0.0.1:${mediaPorts.rtmp}/live/${name}?token=${pushToken}`, 'flv', 10, small),
      },
      {
        what: `RTMP play ${name}`,
        run: () => playRtmp(`rtmp://127.0.0.1:${mediaPorts.rtmp}/live/${name}?token=${playToken}`, 5),
      },
      {
        what: `SRT push ${name}`,
        run: () =>
          pushTestPattern(`srt://127.0.0.1:${mediaPorts.srt}?streamid=${srtId(name, pushToken)}`, 'mpegts', 10, small),
      },
      {
        what: `SRT play ${name}`,
        run: () =>
          ffmpeg([
            '-i',
            `srt://127.0.0.1:${mediaPorts.srtPlayback}?streamid=${srtId(name, playToken)}`,
            '-t',
            '3',
            '-f',
            'null',
            '-',
          ]),
      },
      {
        what: `RTSP push ${name}`,
        run: () =>
          pushTestPattern(`rtsp://127.0.0.1:${mediaPorts.rtsp}/live/${name}?token=${pushToken}`, 'rtsp', 10, small),
      },
    ]);
    // A protocol at a time, its names at once: short-lived ffmpegs that must all be refused.
    for (const protocol of ['RTMP push', 'RTMP play', 'SRT push', 'SRT play', 'RTSP push']) {
      const running = attempts
        .filter((attempt) => attempt.what.startsWith(protocol))
        .map((attempt) => ({ ...attempt, client: attempt.run() }));
      const codes = await Promise.all(
        running.map(({ client }) => Promise.race([client.exited, sleep(12_000).then(() => 'still running' as const)])),
      );
      for (const [i, { what, client }] of running.entries()) {
        client.stop();
        expect(codes[i], `${what}: ${client.stderr().slice(-300)}`).not.toBe(0);
        expect(codes[i], what).not.toBe('still running');
      }
    }
    const stream = (await api<StreamInput>('GET', `/inputs/${f.foreign.id}`)).body;
    expect(stream.status).not.toBe('Ingestion');
  }, 120_000);
});
