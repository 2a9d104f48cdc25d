import { randomUUID } from 'node:crypto';
import {
  type BeaconEvent,
  METRICS_SCRAPE_PATH,
  type ViewerAnalytics,
  type ViewerSessionDetail,
  type ViewerSessionList,
} from '@streamcloud/contract';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import {
  expectValidationError,
  type MatrixRow,
  ownerOnly,
  roleMatrixTests,
  signedIn,
  TestClock,
  useTestApp,
} from '../../../test/helpers.js';

const clock = new TestClock();
/** Issue 37: the viewer beacon and the analytics read from it. */
const SCRAPE_TOKEN = 'scrape-token-0123456789';
const t = useTestApp(
  { clock, analytics: { perSessionPerMinute: 6 }, statistics: { scrapeToken: SCRAPE_TOKEN } },
  { roles: true },
);

const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0';
const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
const HOUR = 3600_000;

/** An output of a stream of the owner's, and a viewer session credential its player got. */
async function playedOutput() {
  const input = await t.createInput();
  const output = await t.createOutput({ streamId: input.id, format: 'WebRTC' });
  return { input, output, session: await viewerSession(output.id) };
}

async function viewerSession(outputId: string): Promise<string> {
  const info = await t.request({ method: 'GET', url: `/api/v1/play/${outputId}` });
  expect(info.statusCode, info.body).toBe(200);
  return info.json().viewerSession as string;
}

function beacon(
  outputId: string,
  body: object,
  client: { userAgent?: string; address?: string; headers?: Record<string, string> } = {},
) {
  return t.request({
    method: 'POST',
    url: `/api/v1/play/${outputId}/beacons`,
    payload: body,
    remoteAddress: client.address ?? '127.0.0.1',
    headers: { 'user-agent': client.userAgent ?? FIREFOX, ...client.headers },
  });
}

const batch = (session: string, events: BeaconEvent[], extra: object = {}) => ({
  session,
  player: 'embed',
  sentAt: Math.max(...events.map((event) => event.at)),
  events,
  ...extra,
});

const playback: BeaconEvent[] = [
  { type: 'startup', at: 400, startupMs: 300, ttffMs: 900 },
  { type: 'rendition', at: 900, width: 1280, height: 720, bitrate: 2_500_000 },
  { type: 'latency', at: 5000, latencyMs: 1200 },
  { type: 'rebuffer', at: 6000, durationMs: 1000 },
  { type: 'watch', at: 10_000, watchedMs: 9000 },
];

const window = () => {
  const now = clock.now().getTime();
  return `from=${new Date(now - HOUR).toISOString()}&to=${new Date(now + HOUR).toISOString()}`;
};
const streamAnalytics = (streamId: string, token = t.roles.owner.token) =>
  t.request({ method: 'GET', url: `/api/v1/inputs/${streamId}/analytics?${window()}`, token });

async function countRows(): Promise<number[]> {
  const counts = await Promise.all(
    (['viewer_sessions', 'viewer_events', 'viewer_minutes'] as const).map((table) =>
      t.database.db.selectFrom(table).select(sql<number>`count(*)`.as('n')).executeTakeFirstOrThrow(),
    ),
  );
  return counts.map((row) => Number(row.n));
}

describe('role matrix', () => {
  type Subject = Awaited<ReturnType<typeof playedOutput>> & { sessionId: string };
  const rows: MatrixRow<Subject>[] = [
    {
      name: 'POST /play/{id}/beacons',
      call: ({ output, session }) => [
        'POST',
        `/api/v1/play/${output.id}/beacons`,
        batch(session, [{ type: 'watch', at: 1000, watchedMs: 1000 }]),
      ],
      expected: { anonymous: 204, 'USER owner': 204, 'USER other': 204, 'ADMIN impersonating owner': 204, ADMIN: 204 },
    },
    {
      name: 'GET /inputs/{id}/analytics',
      call: ({ input }) => ['GET', `/api/v1/inputs/${input.id}/analytics?${window()}`],
      expected: ownerOnly(200),
    },
    {
      name: 'GET /inputs/{id}/analytics/sessions',
      call: ({ input }) => ['GET', `/api/v1/inputs/${input.id}/analytics/sessions?${window()}`],
      expected: ownerOnly(200),
    },
    {
      name: 'GET /analytics/sessions/{id}',
      call: ({ sessionId }) => ['GET', `/api/v1/analytics/sessions/${sessionId}`],
      expected: ownerOnly(200),
    },
    { name: 'GET /analytics', call: () => ['GET', `/api/v1/analytics?${window()}`], expected: signedIn(200) },
  ];
  roleMatrixTests(rows, {
    roles: () => t.roles,
    subject: async () => {
      const subject = await playedOutput();
      expect((await beacon(subject.output.id, batch(subject.session, playback))).statusCode).toBe(204);
      return { ...subject, sessionId: subject.session.split('.')[1] as string };
    },
    // The owner's and ADMIN's analytics count the session; another account's own analytics do not.
    check: (response, caller) => {
      const body = response.statusCode === 200 ? response.json() : {};
      if ('viewers' in body) expect((body as ViewerAnalytics).viewers).toBe(caller === 'USER other' ? 0 : 1);
    },
  });
});

describe('POST /play/{id}/beacons', () => {
  it("files a session's events under its stream: viewers, watch time, percentiles, rebuffering, breakdowns", async () => {
    const { input, output, session } = await playedOutput();
    expect((await beacon(output.id, batch(session, playback))).statusCode).toBe(204);
    // A second viewer, in Germany on an iPhone, with an error and no stall.
    const second = await viewerSession(output.id);
    const events: BeaconEvent[] = [
      { type: 'startup', at: 200, startupMs: 100, ttffMs: 500 },
      { type: 'error', at: 3000, kind: 'network', message: 'WHEP answer timed out' },
      { type: 'watch', at: 4000, watchedMs: 3000 },
    ];
    const answer = await beacon(output.id, batch(second, events), { userAgent: IPHONE, address: '2a00:1450:4001::1' });
    expect(answer.statusCode, answer.body).toBe(204);

    const analytics = (await streamAnalytics(input.id)).json() as ViewerAnalytics;
    expect(analytics).toMatchObject({
      viewers: 2,
      previews: 0,
      watchMs: 12_000,
      rebufferCount: 1,
      rebufferRatio: 1000 / 13_000,
      errorRate: 0.5,
      startupMs: { median: 200, p95: 290 },
      ttffMs: { median: 700, p95: 880 },
      latencyMs: { median: 1200, p95: 1200 },
    });
    // The loopback address has no country; the address itself is kept nowhere.
    expect(analytics.breakdowns.country).toEqual([
      { value: 'DE', viewers: 1, watchMs: 3000, rebufferRatio: 0 },
      { value: 'unknown', viewers: 1, watchMs: 9000, rebufferRatio: 0.1 },
    ]);
    expect(analytics.breakdowns.browser.map((group) => group.value)).toEqual(['Firefox', 'Safari']);
    expect(analytics.breakdowns.device.map((group) => group.value)).toEqual(['desktop', 'mobile']);
    expect(analytics.breakdowns.rendition.map((group) => group.value)).toEqual(['720p', 'unknown']);
    const stored = JSON.stringify(await t.database.db.selectFrom('viewer_sessions').selectAll().execute());
    expect(stored).not.toContain('2a00:1450');
  });

  it("adds a session's later batches to it and answers its timeline", async () => {
    const { input, output, session } = await playedOutput();
    await beacon(output.id, batch(session, playback));
    clock.advance(10_000);
    const later: BeaconEvent[] = [
      { type: 'rendition', at: 12_000, width: 1920, height: 1080, bitrate: 5_000_000 },
      { type: 'watch', at: 20_000, watchedMs: 10_000 },
    ];
    expect((await beacon(output.id, batch(session, later))).statusCode).toBe(204);

    const list = (
      await t.request({
        method: 'GET',
        url: `/api/v1/inputs/${input.id}/analytics/sessions?${window()}`,
        token: t.roles.owner.token,
      })
    ).json() as ViewerSessionList;
    expect(list.sessions).toHaveLength(1);
    const [summary] = list.sessions;
    expect(summary).toMatchObject({
      outputId: output.id,
      player: 'embed',
      browser: 'Firefox',
      os: 'Linux',
      device: 'desktop',
      country: 'unknown',
      startupMs: 300,
      ttffMs: 900,
      watchMs: 19_000,
      rebufferCount: 1,
      rebufferMs: 1000,
      errors: 0,
      latencyMs: 1200,
      rendition: '1080p',
    });
    const detail = (
      await t.request({ method: 'GET', url: `/api/v1/analytics/sessions/${summary?.id}`, token: t.roles.owner.token })
    ).json() as ViewerSessionDetail;
    expect(detail.timeline.map((event) => event.type)).toEqual([
      'startup',
      'rendition',
      'latency',
      'rebuffer',
      'watch',
      'rendition',
      'watch',
    ]);
    // Events sit on the server's clock at their session time from the session's start (the earliest its batches
    // placed); a later batch is off by the real time between the two requests only.
    const start = Date.parse(summary?.startedAt ?? '');
    const offset = Date.parse(detail.timeline.at(-1)?.at ?? '') - start;
    expect(offset).toBeGreaterThanOrEqual(20_000);
    expect(offset).toBeLessThan(21_000);
  });

  it('keeps previews apart from viewers', async () => {
    const { input, output, session } = await playedOutput();
    expect((await beacon(output.id, batch(session, playback, { player: 'preview' }))).statusCode).toBe(204);
    expect((await streamAnalytics(input.id)).json()).toMatchObject({ viewers: 0, previews: 1, watchMs: 0 });
  });

  it('refuses a forged credential, or one of another output, and stores nothing', async () => {
    const { output, session } = await playedOutput();
    const other = await playedOutput();
    const [, id, expiry] = session.split('.');
    for (const forged of [
      `vs1.${randomUUID()}.${expiry}.${session.split('.')[3]}`,
      `vs1.${id}.${Number(expiry) + 3600}.${session.split('.')[3]}`,
      `vs1.${id}.${expiry}.AAAA`,
      'vs1',
      other.session,
    ]) {
      const answer = await beacon(output.id, batch(forged, playback));
      expect(answer.statusCode, forged).toBe(403);
      expect(answer.json().message).toBe('The viewer session is not one this API issued for this output');
    }
    expect(await countRows()).toEqual([0, 0, 0]);
  });

  it('refuses an expired credential (12 hours)', async () => {
    const { output, session } = await playedOutput();
    clock.advance(12 * HOUR + 1000);
    expect((await beacon(output.id, batch(session, playback))).statusCode).toBe(403);
    expect(await countRows()).toEqual([0, 0, 0]);
  });

  it('refuses an oversized body with 413 and too many events with 400, storing nothing', async () => {
    const { output, session } = await playedOutput();
    const many = Array.from({ length: 101 }, (_, i): BeaconEvent => ({ type: 'watch', at: i, watchedMs: 1 }));
    expectValidationError(
      await beacon(output.id, batch(session, many)),
      'body.events',
      'events must hold at most 100 events',
    );
    const huge = batch(session, [{ type: 'error', at: 1, kind: 'other', message: 'x'.repeat(200) }], {
      padding: 'x'.repeat(17 * 1024),
    });
    const answer = await beacon(output.id, huge);
    expect(answer.statusCode, answer.body).toBe(413);
    expect(answer.body).not.toContain('at ');
    expect(await countRows()).toEqual([0, 0, 0]);
  });

  it('names the field and rule of a bad event', async () => {
    const { output, session } = await playedOutput();
    expectValidationError(
      await beacon(output.id, batch(session, [{ type: 'latency', at: 1, latencyMs: -5 }])),
      'body.events.0.latencyMs',
      'latencyMs must be at least 0',
    );
    expectValidationError(
      await beacon(output.id, batch(session, [{ type: 'watch', at: 1, watchedMs: 1, extra: 1 } as never])),
      'body.events.0',
    );
    expect(await countRows()).toEqual([0, 0, 0]);
  });

  it('limits batches per session and minute (429 with Retry-After), then lets the session go on', async () => {
    const { output, session } = await playedOutput();
    const one = batch(session, [{ type: 'watch', at: 1, watchedMs: 1 }]);
    for (let i = 0; i < 6; i++) expect((await beacon(output.id, one)).statusCode).toBe(204);
    const refused = await beacon(output.id, one);
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect((await countRows())[1]).toBe(6);
    clock.advance(60_000);
    expect((await beacon(output.id, one)).statusCode).toBe(204);
  });

  it("answers 404 for a deleted output's beacon", async () => {
    const { output, session } = await playedOutput();
    const deleted = await t.request({
      method: 'DELETE',
      url: `/api/v1/outputs/${output.id}`,
      token: t.roles.owner.token,
    });
    expect(deleted.statusCode, deleted.body).toBe(204);
    expect((await beacon(output.id, batch(session, playback))).statusCode).toBe(404);
    expect(await countRows()).toEqual([0, 0, 0]);
  });

  it('takes a beacon from a page holding the anti-forgery cookie without its header (sendBeacon sets none)', async () => {
    const { output, session } = await playedOutput();
    const page = await t.request({ method: 'GET', url: `/api/v1/play/${output.id}` });
    const cookie = String(page.headers['set-cookie']).split(';')[0] as string;
    expect(cookie).toContain('=');
    const answer = await beacon(output.id, batch(session, playback), { headers: { cookie } });
    expect(answer.statusCode, answer.body).toBe(204);
  });
});

describe('analytics', () => {
  it("answers an account's analytics over its streams; an ADMIN's over every account", async () => {
    const first = await playedOutput();
    await beacon(first.output.id, batch(first.session, playback));
    const bobs = await t.createInput({}, t.roles.other.token);
    const bobsOutput = await t.createOutput({ streamId: bobs.id, format: 'WebRTC' }, t.roles.other.token);
    await beacon(bobsOutput.id, batch(await viewerSession(bobsOutput.id), playback));

    const as = async (token: string, query = '') =>
      (
        (
          await t.request({ method: 'GET', url: `/api/v1/analytics?${window()}${query}`, token })
        ).json() as ViewerAnalytics
      ).viewers;
    expect(await as(t.roles.owner.token)).toBe(1);
    expect(await as(t.roles.admin.token)).toBe(2);
    expect(await as(t.roles.admin.token, `&account=${t.roles.other.id}`)).toBe(1);
    const naming = await t.request({
      method: 'GET',
      url: `/api/v1/analytics?${window()}&account=${t.roles.other.id}`,
      token: t.roles.owner.token,
    });
    expect(naming.statusCode).toBe(404);
  });

  it('counts only the sessions seen in the window, and names a bad window', async () => {
    const { input, output, session } = await playedOutput();
    await beacon(output.id, batch(session, playback));
    clock.advance(3 * HOUR);
    expect((await streamAnalytics(input.id)).json()).toMatchObject({ viewers: 0, watchMs: 0 });
    const now = clock.now().toISOString();
    expectValidationError(
      await t.request({
        method: 'GET',
        url: `/api/v1/inputs/${input.id}/analytics?from=${now}&to=2000-01-01T00:00:00Z`,
        token: t.roles.owner.token,
      }),
      'querystring.to',
      'to must not be before from',
    );
  });

  it('drops what is past the retention period', async () => {
    // The batch's events span its last 10 s: at mid-minute they all fall in one minute row.
    clock.advance(90_000 - (clock.now().getTime() % 60_000));
    const { output, session } = await playedOutput();
    await beacon(output.id, batch(session, playback));
    await t.app.services.analytics.expire();
    expect(await countRows()).toEqual([1, 5, 1]);
    clock.advance(31 * 24 * HOUR);
    await t.app.services.analytics.expire();
    expect(await countRows()).toEqual([0, 0, 0]);
  });
});

describe('Prometheus series', () => {
  it("exposes each stream's last 5 minutes of viewer quality, previews apart", async () => {
    const { input, output, session } = await playedOutput();
    await beacon(output.id, batch(session, playback));
    const previewed = await playedOutput();
    await beacon(previewed.output.id, batch(previewed.session, playback, { player: 'preview' }));
    const scrape = async () => (await t.request({ method: 'GET', url: METRICS_SCRAPE_PATH, token: SCRAPE_TOKEN })).body;
    const body = await scrape();
    const series = (name: string) =>
      `streamcloud_viewer_quality{account="${t.roles.owner.id}",stream="${input.id}",name="${name}"}`;
    expect(body).toContain('# TYPE streamcloud_viewer_quality gauge');
    expect(body).toContain(`${series('Viewers')} 1\n`);
    expect(body).toContain(`${series('WatchSeconds')} 9\n`);
    expect(body).toContain(`${series('RebufferRatio')} 0.1\n`);
    expect(body).toContain(`${series('ErrorRate')} 0\n`);
    expect(body).toContain(`${series('TtffMedianMs')} 900\n`);
    expect(body).toContain(`${series('LatencyP95Ms')} 1200\n`);
    expect(body).not.toContain(previewed.input.id);
    clock.advance(6 * 60_000);
    expect(await scrape()).not.toContain(input.id);
  });
});
