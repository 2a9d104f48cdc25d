import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { beforeEach, describe, expect, it } from 'vitest';
import {
  ownerOnly,
  roleMatrixTests,
  signedIn,
  type TestAccount,
  TestClock,
  useTestApp,
} from '../../../test/helpers.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** A clock that follows real time, moved forward on demand (retention). */
const clock = new TestClock();
const t = useTestApp({ clock }, { roles: true });

let admin: TestAccount;
let owner: TestAccount;
let other: TestAccount;
/** Midnight (UTC) two days ago: the day the fixtures happen on. */
let day: number;
const iso = (ms: number) => new Date(ms).toISOString();
let from: string;
let to: string;

beforeEach(() => {
  ({ admin, owner, other } = t.roles);
  day = Math.floor(Date.now() / DAY) * DAY - 2 * DAY;
  from = iso(day);
  to = iso(day + DAY - 1);
});

const get = (url: string, token: string | undefined) => t.request({ method: 'GET', url, token });

const sent = async (nodeToken: string, reports: object[]) => {
  const response = await t.report(nodeToken, reports);
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as { accepted: number; duplicates: number };
};

const session = (sessionId: string, startedAt: number, duration: number, upload: number, download = 0) => ({
  sessionId,
  startedAt: iso(startedAt),
  duration,
  upload,
  download,
});

/** A stream ingested on node A (EU) from 10:00 for 90 minutes, relayed to node B (NA) that serves viewers. */
async function scenario() {
  const nodeA = await t.createNode(admin, { name: 'edge-eu', location: { code: 'EU' } });
  const nodeB = await t.createNode(admin, { name: 'edge-na', location: { code: 'NA' } });
  const rtmp = await t.createInput({ format: 'RTMP', output: { passthrough: true } }, owner.token);
  const webrtc = await t.createInput({ format: 'WebRTC', caption: 'Main camera' }, owner.token);
  const start = day + 10 * HOUR;
  const usage = [
    // 10:00-11:00 and 11:00-11:30 of one RTMP publish session, in two deltas.
    {
      id: 'u1',
      kind: 'usage',
      at: iso(start + 59 * 60_000),
      streamId: rtmp.id,
      incoming: [session('pub-1', start, 3600, 2e9, 1e6)],
    },
    {
      id: 'u2',
      kind: 'usage',
      at: iso(start + 90 * 60_000),
      streamId: rtmp.id,
      incoming: [session('pub-1', start, 1800, 1e9, 5e5)],
    },
    // A second session of the WebRTC stream.
    {
      id: 'u3',
      kind: 'usage',
      at: iso(start + 30 * 60_000),
      streamId: webrtc.id,
      incoming: [session('w-1', start + 5 * 60_000, 1500, 3e8)],
    },
  ];
  const edge = [
    {
      id: 'e1',
      kind: 'usage',
      at: iso(start + 30 * 60_000),
      streamId: rtmp.id,
      internode: { duration: 1800, upload: 0, download: 1.5e9 },
      outgoing: { duration: 1800, upload: 1e6, download: 4e9 },
    },
    {
      id: 'e2',
      kind: 'usage',
      at: iso(start + 80 * 60_000),
      streamId: rtmp.id,
      outgoing: { duration: 1200, upload: 0, download: 2e9 },
    },
  ];
  expect(await sent(nodeA.token, usage)).toEqual({ accepted: 3, duplicates: 0 });
  expect(await sent(nodeB.token, edge)).toEqual({ accepted: 2, duplicates: 0 });
  return { nodeA, nodeB, rtmp, webrtc, start, usage, edge };
}

const usageUrl = (query = '') => `/api/v1/statistics/stream/from/${from}/to/${to}${query}`;
const streamUrl = (id: string, query = '') => `/api/v1/statistics/stream/${id}/from/${from}/to/${to}${query}`;
const accountMetricsUrl = (id: string, query = '?metrics=IncomingTotal') =>
  `/api/v1/statistics/account/${id}/metrics/from/${from}/to/${to}${query}`;

describe('role matrix', () => {
  const read = (url: string): ['GET', string] => ['GET', url];
  roleMatrixTests<{ input: string; owner: string }>(
    [
      { name: 'GET /statistics/stream/from/to', call: () => read(usageUrl()), expected: signedIn(200) },
      {
        name: 'GET /statistics/stream/from/to?account=owner',
        call: ({ owner }) => read(usageUrl(`?account=${owner}`)),
        expected: ownerOnly(200),
      },
      {
        name: 'GET /statistics/stream/from/to?metrics',
        call: ({ owner }) => read(usageUrl(`?metrics=IncomingTotal&account=${owner}`)),
        expected: ownerOnly(200),
      },
      {
        name: 'GET /statistics/stream/{id}/from/to',
        call: ({ input }) => read(streamUrl(input)),
        expected: ownerOnly(200),
      },
      {
        name: 'GET /statistics/stream/{id}/from/to?metrics',
        call: ({ input }) => read(streamUrl(input, '?metrics=IncomingBitrate')),
        expected: ownerOnly(200),
      },
      {
        name: 'GET /statistics/account/{id}/metrics/from/to',
        call: ({ owner }) => read(accountMetricsUrl(owner)),
        expected: ownerOnly(200),
      },
    ],
    {
      roles: () => t.roles,
      subject: async () => ({ input: (await t.createInput({}, owner.token)).id, owner: owner.id }),
    },
  );

  it('a node token is not accepted on the statistics calls', async () => {
    const node = await t.createNode(admin);
    expect((await get(usageUrl(), node.token)).statusCode).toBe(401);
  });

  it('/metrics answers 404 when no scrape token is configured', async () => {
    expect((await get('/metrics', admin.token)).statusCode).toBe(404);
  });
});

describe('usage', () => {
  it('sums the deltas per session and node on the database, with the stream identity', async () => {
    const { rtmp, webrtc, nodeA, nodeB, start } = await scenario();
    const response = await get(usageUrl(), owner.token);
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.concurrentSessions).toBe(0);
    const byId = Object.fromEntries(body.streams.map((stream: { streamId: string }) => [stream.streamId, stream]));
    expect(Object.keys(byId).sort()).toEqual([rtmp.id, webrtc.id].sort());
    expect(byId[rtmp.id]).toEqual({
      streamId: rtmp.id,
      caption: null,
      accountId: owner.id,
      protocol: 'InputRTMP',
      processing: 'Passthrough',
      duration: 5400,
      incoming: [
        {
          sessionId: 'pub-1',
          nodeId: nodeA.id,
          node: 'edge-eu',
          started: iso(start),
          ended: iso(start + 90 * 60_000),
          duration: 5400,
          upload: 3e9,
          download: 1.5e6,
        },
      ],
      internode: [{ nodeId: nodeB.id, node: 'edge-na', duration: 1800, upload: 0, download: 1.5e9 }],
      outgoing: [{ nodeId: nodeB.id, node: 'edge-na', duration: 3000, upload: 1e6, download: 6e9 }],
    });
    expect(byId[webrtc.id]).toMatchObject({
      caption: 'Main camera',
      protocol: 'InputWebRTC',
      processing: 'Transcode',
      duration: 1500,
    });
  });

  it('a repeated report changes nothing', async () => {
    const { nodeA, nodeB, usage, edge } = await scenario();
    const before = (await get(usageUrl(), owner.token)).json();
    expect(await sent(nodeA.token, usage)).toEqual({ accepted: 0, duplicates: 3 });
    expect(await sent(nodeB.token, [...edge, ...edge])).toEqual({ accepted: 0, duplicates: 4 });
    expect((await get(usageUrl(), owner.token)).json()).toEqual(before);
    const records = await sql<{ count: number }>`select count(*)::int as count from usage_records`.execute(
      t.database.db,
    );
    expect(records.rows[0]?.count).toBe(6);
  });

  it('filters by protocol and processing, and scopes USER to its own account', async () => {
    const { rtmp, webrtc } = await scenario();
    const ids = async (query: string, token = owner.token) =>
      (await get(usageUrl(query), token)).json().streams.map((stream: { streamId: string }) => stream.streamId);
    expect(await ids('?protocol=InputRTMP')).toEqual([rtmp.id]);
    expect(await ids('?processing=Transcode')).toEqual([webrtc.id]);
    expect(await ids('?protocol=InputRTMP&processing=Transcode')).toEqual([]);
    expect(await ids('', other.token)).toEqual([]);
    expect((await ids('', admin.token)).sort()).toEqual([rtmp.id, webrtc.id].sort());
    expect(await ids(`?account=${other.id}`, admin.token)).toEqual([]);
  });

  it('bills the processing the node reports: an adjustable stream whose ladder did not run is Passthrough', async () => {
    const { webrtc, nodeA, start } = await scenario();
    const idle = await t.createInput({ format: 'RTMP' }, owner.token);
    const report = (id: string, streamId: string, processing: string) => ({
      id,
      kind: 'usage',
      at: iso(start + 40 * 60_000),
      streamId,
      processing,
      incoming: [session(`${id}-s`, start + 35 * 60_000, 60, 1e6)],
    });
    expect(
      await sent(nodeA.token, [report('p1', idle.id, 'Passthrough'), report('p2', webrtc.id, 'Transcode')]),
    ).toEqual({
      accepted: 2,
      duplicates: 0,
    });
    const streams = (await get(usageUrl(), owner.token)).json().streams as { streamId: string; processing: string }[];
    expect(streams.find((stream) => stream.streamId === idle.id)?.processing).toBe('Passthrough');
    expect(streams.find((stream) => stream.streamId === webrtc.id)?.processing).toBe('Transcode');
    const ids = async (query: string) =>
      (await get(usageUrl(query), owner.token)).json().streams.map((stream: { streamId: string }) => stream.streamId);
    expect(await ids('?processing=Transcode')).toEqual([webrtc.id]);
    expect(await ids('?processing=Passthrough')).toContain(idle.id);
    const daily = await sql<{ processing: string }>`select processing from usage_daily where processing = 'Passthrough'
      and account_id = ${owner.id}`.execute(t.database.db);
    expect(daily.rows.length).toBeGreaterThan(0);
  });

  it('counts usage in the hour it was measured: a window touching the hour includes it', async () => {
    const { rtmp, start } = await scenario();
    const window = async (a: number, b: number) => {
      const response = await get(`/api/v1/statistics/stream/${rtmp.id}/from/${iso(a)}/to/${iso(b)}`, owner.token);
      return response.json().streams[0]?.incoming[0]?.duration ?? 0;
    };
    expect(await window(start, start + 30 * 60_000)).toBe(3600);
    expect(await window(start + HOUR + 10 * 60_000, start + HOUR + 20 * 60_000)).toBe(1800);
    expect(await window(start + 3 * HOUR, start + 4 * HOUR)).toBe(0);
  });

  it('a window of whole days and partial edge days answers as hour by hour', async () => {
    const nodeA = await t.createNode(admin, { name: 'edge-eu' });
    const nodeB = await t.createNode(admin, { name: 'edge-na' });
    const rtmp = await t.createInput({ format: 'RTMP' }, owner.token);
    // Four days from d0 (midnight, four days ago); a publish session from 21:00 on d0 and traffic on node B.
    const d0 = day - 2 * DAY;
    const started = d0 + 21 * HOUR;
    // d0 21:30 and 22:30, d1 03:00 and 23:59, d2 12:00, d3 00:30, 01:45 and 02:10.
    const minutes = [1290, 1350, 1620, 2879, 3600, 4350, 4425, 4450];
    // Delta n: 2^n (distinct sums for every subset), measured at d0 + minutes[n].
    const deltas = minutes.map((minute, n) => ({ at: d0 + minute * 60_000, amount: 2 ** n }));
    await sent(
      nodeA.token,
      deltas.map(({ at, amount }, n) => ({
        id: `in-${n}`,
        kind: 'usage',
        at: iso(at),
        streamId: rtmp.id,
        incoming: [session('pub', started, 10 * amount, 1000 * amount, amount)],
      })),
    );
    await sent(
      nodeB.token,
      deltas.map(({ at, amount }, n) => ({
        id: `out-${n}`,
        kind: 'usage',
        at: iso(at),
        streamId: rtmp.id,
        internode: { duration: 20 * amount, upload: 0, download: 3000 * amount },
        outgoing: { duration: 30 * amount, upload: 5 * amount, download: 7000 * amount },
      })),
    );
    // Today's rule: every delta measured in an hour the window touches.
    const expected = (a: number, b: number) => {
      const hour = (ms: number) => Math.floor(ms / HOUR) * HOUR;
      const inside = deltas.filter(({ at }) => hour(at) >= hour(a) && hour(at) <= b);
      if (inside.length === 0) return [];
      const total = inside.reduce((sum, { amount }) => sum + amount, 0);
      const ended = Math.max(...inside.map(({ at }) => at));
      return [
        {
          streamId: rtmp.id,
          caption: null,
          accountId: owner.id,
          protocol: 'InputRTMP',
          processing: expect.any(String),
          duration: 10 * total,
          incoming: [
            {
              sessionId: 'pub',
              nodeId: nodeA.id,
              node: 'edge-eu',
              started: iso(started),
              ended: iso(ended),
              duration: 10 * total,
              upload: 1000 * total,
              download: total,
            },
          ],
          internode: [{ nodeId: nodeB.id, node: 'edge-na', duration: 20 * total, upload: 0, download: 3000 * total }],
          outgoing: [
            { nodeId: nodeB.id, node: 'edge-na', duration: 30 * total, upload: 5 * total, download: 7000 * total },
          ],
        },
      ];
    };
    const windows: Array<[string, number, number]> = [
      ['edge hours around two whole days', d0 + 22 * HOUR + 10 * 60_000, d0 + 3 * DAY + HOUR + 5 * 60_000],
      ['whole days only', d0 + DAY, d0 + 3 * DAY - 1],
      ['midnight to midnight', d0 + DAY, d0 + 3 * DAY],
      ['no whole day', d0 + DAY + 2 * HOUR, d0 + 2 * DAY + 23 * HOUR - 1],
      ['one whole day and the next hour', d0 + DAY - 1, d0 + 2 * DAY + 30 * 60_000],
      ['every day', d0, d0 + 4 * DAY - 1],
      ['hours of one day', d0 + 21 * HOUR + 59 * 60_000, d0 + 22 * HOUR],
      ['nothing', d0 + 4 * HOUR, d0 + 20 * HOUR],
    ];
    for (const [name, a, b] of windows) {
      const response = await get(`/api/v1/statistics/stream/from/${iso(a)}/to/${iso(b)}`, owner.token);
      expect(response.statusCode, name).toBe(200);
      expect(response.json().streams, name).toEqual(expected(a, b));
      const stream = await get(`/api/v1/statistics/stream/${rtmp.id}/from/${iso(a)}/to/${iso(b)}`, admin.token);
      expect(stream.json().streams, name).toEqual(expected(a, b));
    }
  });

  it('answers the streams in id order, across the id ranges the report is rendered in', async () => {
    const node = await t.createNode(admin, { name: 'edge' });
    // Streams known from earlier usage only (their inputs are gone), at both ends of both halves of the ids.
    const ids = [
      'ffffffff-ffff-4fff-bfff-ffffffffffff',
      '00000000-0000-4000-8000-000000000001',
      '80000000-0000-4000-8000-000000000000',
      '7fffffff-ffff-4fff-bfff-ffffffffffff',
      '9a000000-0000-4000-8000-000000000000',
    ];
    await sql`insert into usage_streams (stream_id, account_id, protocol, processing, name)
              select id::uuid, ${owner.id}, 'InputRTMP', 'Passthrough', 'pt+' || id
              from unnest(${ids}::text[]) as id`.execute(t.database.db);
    await sent(
      node.token,
      ids.map((streamId, n) => ({
        id: `u${n}`,
        kind: 'usage',
        at: iso(day + HOUR),
        streamId,
        outgoing: { duration: 60, upload: 0, download: n + 1 },
      })),
    );
    for (const url of [usageUrl(), usageUrl(`?account=${owner.id}`)]) {
      const streams = (await get(url, admin.token)).json().streams as Array<{
        streamId: string;
        outgoing: Array<{ download: number }>;
      }>;
      expect(streams.map((stream) => stream.streamId)).toEqual([...ids].sort());
      for (const stream of streams) {
        expect(stream.outgoing).toEqual([
          { nodeId: node.id, node: 'edge', duration: 60, upload: 0, download: ids.indexOf(stream.streamId) + 1 },
        ]);
      }
    }
  });

  it('outlives the deletion of the stream and of the account', async () => {
    const { rtmp, nodeA, start } = await scenario();
    expect(
      (await t.request({ method: 'DELETE', url: `/api/v1/inputs/${rtmp.id}`, token: owner.token })).statusCode,
    ).toBe(204);
    // A last delta that arrives after the deletion still counts.
    await sent(nodeA.token, [
      {
        id: 'late',
        kind: 'usage',
        at: iso(start + 95 * 60_000),
        streamId: rtmp.id,
        incoming: [session('pub-1', start, 300, 1e8)],
      },
    ]);
    const stream = await get(streamUrl(rtmp.id), owner.token);
    expect(stream.statusCode).toBe(200);
    expect(stream.json().streams[0]).toMatchObject({
      streamId: rtmp.id,
      duration: 5700,
      incoming: [{ upload: 3.1e9 }],
    });
    expect((await get(streamUrl(rtmp.id), other.token)).statusCode).toBe(404);

    expect(
      (await t.request({ method: 'DELETE', url: `/api/v1/accounts/${owner.id}`, token: admin.token })).statusCode,
    ).toBe(204);
    const all = (await get(usageUrl(`?account=${owner.id}`), admin.token)).json();
    expect(all.streams.map((entry: { streamId: string }) => entry.streamId)).toContain(rtmp.id);
  });

  it('ignores usage of a stream that never existed and takes a future time as the time of arrival', async () => {
    const node = await t.createNode(admin);
    const input = await t.createInput({}, owner.token);
    expect(
      await sent(node.token, [
        { id: 'x', kind: 'usage', streamId: randomUUID(), outgoing: { upload: 1, download: 1 } },
      ]),
    ).toEqual({ accepted: 1, duplicates: 0 });
    await sent(node.token, [
      {
        id: 'f',
        kind: 'usage',
        at: iso(Date.now() + 30 * DAY),
        streamId: input.id,
        outgoing: { upload: 1, download: 7 },
      },
    ]);
    const now = Date.now();
    const body = (
      await get(`/api/v1/statistics/stream/${input.id}/from/${iso(now - HOUR)}/to/${iso(now + HOUR)}`, owner.token)
    ).json();
    expect(body.streams).toHaveLength(1);
    expect(body.streams[0].outgoing[0]).toMatchObject({ download: 7 });
    const stored = await sql<{ count: number }>`select count(*)::int as count from usage_records`.execute(
      t.database.db,
    );
    expect(stored.rows[0]?.count).toBe(1);
  });

  it('refuses an invalid report as a whole', async () => {
    const node = await t.createNode(admin);
    const input = await t.createInput({}, owner.token);
    const response = await t.report(node.token, [
      { id: 'ok', kind: 'usage', streamId: input.id, outgoing: { upload: 1, download: 1 } },
      { id: 'bad', kind: 'usage', streamId: input.id, outgoing: { upload: -1, download: 1 } },
    ]);
    expect(response.statusCode).toBe(400);
    expect(response.json().errors[0]).toMatchObject({ message: 'upload must be at least 0' });
    const stored = await sql<{ count: number }>`select count(*)::int as count from usage_records`.execute(
      t.database.db,
    );
    expect(stored.rows[0]?.count).toBe(0);
  });
});

describe('window rules', () => {
  it.each([
    [
      'to before from',
      `/api/v1/statistics/stream/from/2024-03-02T00:00:00Z/to/2024-03-01T00:00:00Z`,
      'params.to',
      'to must not be before from',
    ],
    [
      'a window over 92 days',
      `/api/v1/statistics/stream/from/2024-01-01T00:00:00Z/to/2024-04-02T00:00:01Z`,
      'params.to',
      'The window from from to to must be at most 92 days',
    ],
    [
      'a date that is not ISO',
      `/api/v1/statistics/stream/from/01-03-2024/to/2024-03-01T00:00:00Z`,
      'params.from',
      'from must be an ISO timestamp',
    ],
    [
      'an unknown metric',
      `/api/v1/statistics/stream/from/2024-03-01T00:00:00Z/to/2024-03-02T00:00:00Z?metrics=Bogus`,
      'querystring.metrics',
      'metrics must be a comma-separated list of: IncomingTotal, IncomingByOutputType, ViewersTotal, OutgoingBitrateTotal, ConcurrentViewersTotal',
    ],
    [
      'a per-stream metric over many streams',
      `/api/v1/statistics/stream/from/2024-03-01T00:00:00Z/to/2024-03-02T00:00:00Z?metrics=IncomingRTT`,
      'querystring.metrics',
      undefined,
    ],
    [
      'an unknown protocol',
      `/api/v1/statistics/stream/from/2024-03-01T00:00:00Z/to/2024-03-02T00:00:00Z?protocol=RTMP`,
      'querystring.protocol',
      undefined,
    ],
  ])('refuses %s with 400 naming the field and the rule', async (_name, url, path, message) => {
    const response = await get(url, owner.token);
    expect(response.statusCode).toBe(400);
    const error = response.json().errors[0];
    expect(error.path).toBe(path);
    if (message) expect(error.message).toBe(message);
  });

  it('accepts a window of exactly 92 days', async () => {
    const response = await get(
      '/api/v1/statistics/stream/from/2024-01-01T00:00:00Z/to/2024-04-02T00:00:00Z',
      owner.token,
    );
    expect(response.statusCode).toBe(200);
  });
});

describe('metrics', () => {
  /** Samples every 10 s for 10 minutes from `at`: node A (EU) ingests, node B (NA) serves viewers. */
  async function samples(at: number) {
    const nodeA = await t.createNode(admin, { location: { code: 'EU' } });
    const nodeB = await t.createNode(admin, { location: { code: 'NA' } });
    const rtmp = await t.createInput({ format: 'RTMP' }, owner.token);
    const webrtc = await t.createInput({ format: 'WebRTC' }, owner.token);
    const reportsA = [];
    const reportsB = [];
    for (let i = 0; i < 60; i++) {
      const when = iso(at + i * 10_000);
      reportsA.push({
        id: `a${i}`,
        kind: 'metrics',
        at: when,
        streams: [
          {
            streamId: rtmp.id,
            sessions: 1,
            values: {
              IncomingBitrate: 2e6,
              IncomingRTT: 40,
              IncomingPacketsLost: 2,
              ConcurrentViewers: 3,
              OutgoingBitrate: 3e6,
            },
          },
          { streamId: webrtc.id, sessions: 1, values: { IncomingBitrate: 1e6 } },
        ],
      });
      reportsB.push({
        id: `b${i}`,
        kind: 'metrics',
        at: when,
        streams: [{ streamId: rtmp.id, sessions: 5, values: { ConcurrentViewers: 5, OutgoingBitrate: 5e6 } }],
      });
    }
    await sent(nodeA.token, reportsA);
    await sent(nodeB.token, reportsB);
    return { rtmp, webrtc, nodeA, nodeB };
  }

  const seriesOf = (body: {
    result: Array<{ metric: { labels: { name: string; location?: string } }; values: [number, number][] }>;
  }) =>
    Object.fromEntries(
      body.result.map((series) => [
        series.metric.labels.location
          ? `${series.metric.labels.name}@${series.metric.labels.location}`
          : series.metric.labels.name,
        series.values,
      ]),
    );

  it('answers one stream per name and location, the totals across locations, at a step within 1,000 points', async () => {
    const at = Math.floor((Date.now() - HOUR) / 60_000) * 60_000;
    const { rtmp } = await samples(at);
    const window = `/api/v1/statistics/stream/${rtmp.id}/from/${iso(at)}/to/${iso(at + 10 * 60_000 - 1)}`;
    const response = await get(
      `${window}?metrics=IncomingBitrate,ConcurrentViewers,ConcurrentViewersTotal,OutgoingBitrateTotal,IncomingRTT,IncomingByOutputType`,
      owner.token,
    );
    expect(response.statusCode, response.body).toBe(200);
    const series = seriesOf(response.json());
    expect(Object.keys(series).sort()).toEqual([
      'ConcurrentViewers@EU',
      'ConcurrentViewers@NA',
      'ConcurrentViewersTotal',
      'INPUT:RTMP',
      'IncomingBitrate@EU',
      'IncomingRTT@EU',
      'OutgoingBitrateTotal',
    ]);
    // 10 minutes: a 5 s step, one point per sample.
    expect(series['IncomingBitrate@EU']).toHaveLength(60);
    expect(series['IncomingBitrate@EU']?.[0]).toEqual([at / 1000, 2e6]);
    expect(series.ConcurrentViewersTotal?.[0]).toEqual([at / 1000, 8]);
    expect(series.OutgoingBitrateTotal?.[5]).toEqual([at / 1000 + 50, 8e6]);
    expect(series['IncomingRTT@EU']?.[0]?.[1]).toBe(40);
  });

  it('answers account-wide series: total, by input type, viewers; and the peak of concurrent sessions', async () => {
    const at = Math.floor((Date.now() - HOUR) / 60_000) * 60_000;
    await samples(at);
    const window = `from/${iso(at)}/to/${iso(at + 10 * 60_000 - 1)}`;
    const response = await get(
      `/api/v1/statistics/account/${owner.id}/metrics/${window}?metrics=IncomingTotal,IncomingByOutputType,ViewersTotal`,
      owner.token,
    );
    expect(response.statusCode, response.body).toBe(200);
    const series = seriesOf(response.json());
    expect(Object.keys(series).sort()).toEqual(['INPUT:RTMP', 'INPUT:WebRTC', 'IncomingTotal', 'ViewersTotal']);
    // Account series have at least a minute step.
    expect(series.IncomingTotal).toHaveLength(10);
    expect(series.IncomingTotal?.[0]).toEqual([at / 1000, 3e6]);
    expect(series['INPUT:WebRTC']?.[3]).toEqual([at / 1000 + 180, 1e6]);
    expect(series.ViewersTotal?.[9]).toEqual([at / 1000 + 540, 8]);

    const same = (
      await get(
        `/api/v1/statistics/stream/${window}?metrics=IncomingTotal,IncomingByOutputType,ViewersTotal`,
        owner.token,
      )
    ).json();
    expect(seriesOf(same)).toEqual(series);
    const everyone = seriesOf(
      (await get(`/api/v1/statistics/stream/${window}?metrics=IncomingTotal`, admin.token)).json(),
    );
    expect(everyone.IncomingTotal?.[0]).toEqual([at / 1000, 3e6]);
    const filtered = seriesOf(
      (await get(`/api/v1/statistics/stream/${window}?metrics=IncomingTotal&protocol=InputWebRTC`, owner.token)).json(),
    );
    expect(filtered.IncomingTotal?.[0]).toEqual([at / 1000, 1e6]);
    const nobody = seriesOf(
      (await get(`/api/v1/statistics/stream/${window}?metrics=IncomingTotal`, other.token)).json(),
    );
    expect(nobody).toEqual({ IncomingTotal: [] });

    const usage = (await get(`/api/v1/statistics/stream/${window}`, owner.token)).json();
    expect(usage.concurrentSessions).toBe(7);
    expect(
      (await get(`/api/v1/statistics/stream/${window}?protocol=InputWebRTC`, owner.token)).json().concurrentSessions,
    ).toBe(1);
  });

  it('answers a 90-day window from the hourly rollup at a step of 3 hours', async () => {
    const at = Math.floor((Date.now() - 2 * HOUR) / HOUR) * HOUR;
    const { rtmp } = await samples(at);
    const response = await get(
      `/api/v1/statistics/stream/${rtmp.id}/from/${iso(Date.now() - 90 * DAY)}/to/${iso(Date.now())}?metrics=IncomingBitrate`,
      owner.token,
    );
    const values = seriesOf(response.json())['IncomingBitrate@EU'] ?? [];
    expect(values).toHaveLength(1);
    expect((values[0]?.[0] ?? 0) % 10800).toBe(0);
    expect(values[0]?.[1]).toBe(2e6);
  });

  it('drops raw samples after the retention, keeps the rollups, and answers old windows from them', async () => {
    const at = Math.floor((Date.now() - 2 * HOUR) / HOUR) * HOUR;
    const { rtmp } = await samples(at);
    const count = async (table: string) =>
      (await sql<{ count: number }>`select count(*)::int as count from ${sql.table(table)}`.execute(t.database.db))
        .rows[0]?.count;
    const rawBefore = await count('metric_samples');
    expect(rawBefore).toBeGreaterThan(0);

    clock.shift(6 * DAY);
    await t.app.services.statistics.expire();
    expect(await count('metric_samples')).toBe(rawBefore);
    clock.shift(8 * DAY);
    await t.app.services.statistics.expire();
    expect(await count('metric_samples')).toBe(0);
    expect(await count('metric_minutes')).toBeGreaterThan(0);
    clock.shift(46 * DAY);
    await t.app.services.statistics.expire();
    expect(await count('metric_minutes')).toBe(0);
    expect(await count('metric_account_minutes')).toBe(0);
    expect(await count('metric_hours')).toBeGreaterThan(0);

    // The clock says 46 days later: a 10-minute window is answered from the hourly rollup.
    const asAdmin = {
      accountId: admin.id,
      username: 'root',
      role: 'ADMIN' as const,
      sessionId: randomUUID(),
      actingAdminId: null,
      actingAdminUsername: null,
      parentSessionId: null,
    };
    const answer = await t.app.services.statistics.streamUsage(
      asAdmin,
      { streamId: rtmp.id, from: iso(at), to: iso(at + 10 * 60_000) },
      { metrics: 'IncomingBitrate' },
    );
    clock.shift(0);
    expect(answer).toEqual({
      result: [{ metric: { labels: { name: 'IncomingBitrate', location: 'EU' } }, values: [[at / 1000, 2e6]] }],
    });
  });
});
