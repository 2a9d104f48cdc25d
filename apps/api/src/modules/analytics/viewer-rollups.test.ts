import type { BeaconEvent, ViewerAnalytics } from '@streamcloud/contract';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { concurrently } from '../../../test/concurrency.js';
import { TestClock, useTestApp } from '../../../test/helpers.js';
import { EVERY_ACCOUNT } from './viewer-rollups.repository.js';

/** Issue 37: account-wide windows read hourly rollups for their whole rolled hours, with the same figures. */
const clock = new TestClock();
const t = useTestApp({ clock }, { roles: true });

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0';
const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

/** One playback session of the output at the clock's time: its figures vary with `n`. */
async function session(outputId: string, n: number, player = 'embed') {
  const info = await t.request({ method: 'GET', url: `/api/v1/play/${outputId}` });
  const events: BeaconEvent[] = [
    { type: 'startup', at: 400, startupMs: 200 + n * 37, ttffMs: 600 + n * 91 },
    { type: 'rendition', at: 900, width: 1280, height: n % 2 ? 720 : 1080, bitrate: 2_500_000 },
    { type: 'latency', at: 5000, latencyMs: 1000 + n * 53 },
    { type: 'rebuffer', at: 6000, durationMs: (n % 3) * 400 },
    { type: 'watch', at: 10_000, watchedMs: 9000 },
    ...(n % 4 === 0 ? [{ type: 'error' as const, at: 10_000, kind: 'network' as const }] : []),
  ];
  const response = await t.request({
    method: 'POST',
    url: `/api/v1/play/${outputId}/beacons`,
    payload: { session: info.json().viewerSession, player, sentAt: 10_000, events },
    headers: { 'user-agent': n % 2 ? FIREFOX : IPHONE },
  });
  expect(response.statusCode, response.body).toBe(204);
}

const read = async (url: string, token: string): Promise<ViewerAnalytics> => {
  const response = await t.request({ method: 'GET', url, token });
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
};

/** Counts and sums the same; percentiles within half a bucket (5 %). */
function expectSameFigures(rolled: ViewerAnalytics, raw: ViewerAnalytics) {
  const { startupMs, ttffMs, latencyMs, ...exact } = rolled;
  const { startupMs: s, ttffMs: f, latencyMs: l, ...exactRaw } = raw;
  expect(exact).toEqual(exactRaw);
  for (const [approximate, precise] of [
    [startupMs, s],
    [ttffMs, f],
    [latencyMs, l],
  ] as const) {
    for (const key of ['median', 'p95'] as const) {
      const value = precise[key] as number;
      expect(
        Math.abs((approximate[key] as number) - value) / value,
        `${key} ${approximate[key]} vs ${value}`,
      ).toBeLessThan(0.05);
    }
  }
}

describe('hourly rollups', () => {
  it('answer the same account and all-accounts figures as the sessions, and roll each hour once', async () => {
    const input = await t.createInput();
    const output = await t.createOutput({ streamId: input.id, format: 'WebRTC' });
    const now = clock.now().getTime();
    const from = now - 2 * 24 * HOUR;
    // Sessions in the window's first partial hour, in hours that will be rolled, in the last day (never rolled
    // yet: not final), and previews.
    const at = [from + MINUTE, now - 40 * HOUR, now - 40 * HOUR + 20 * MINUTE, now - 30 * HOUR, now - 2 * HOUR];
    let n = 0;
    for (const time of at) {
      clock.shift(time - now);
      for (let i = 0; i < 3; i++) await session(output.id, n++);
      await session(output.id, n++, 'preview');
    }
    clock.shift(0);
    const window = `from=${new Date(from).toISOString()}&to=${new Date(now).toISOString()}`;
    const accountUrl = `/api/v1/analytics?${window}`;
    const rawAccount = await read(accountUrl, t.roles.owner.token);
    const rawAll = await read(accountUrl, t.roles.admin.token);
    expect(rawAccount.viewers).toBe(15);

    const final = clock.now().getTime() - 25 * HOUR;
    const rolled = await concurrently(2, () => t.app.services.analytics.rollUp());
    const hours = await sql<{ n: number }>`select count(*)::int as n from viewer_hours
      where account_id = ${EVERY_ACCOUNT}`.execute(t.database.db);
    // Every account's row of each hour from the first session's (it started 10 s before its batch) to the last final
    // one (25 hours ago), once each.
    const expected = Math.floor(final / HOUR) - Math.floor((from + MINUTE - 10_000) / HOUR) + 1;
    expect(rolled.reduce((sum, count) => sum + count, 0)).toBe(expected);
    expect(hours.rows[0]?.n).toBe(expected);
    expect(await t.app.services.analytics.rollUp()).toBe(0);

    expectSameFigures(await read(accountUrl, t.roles.owner.token), rawAccount);
    expectSameFigures(await read(accountUrl, t.roles.admin.token), rawAll);
  });
});
