import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type TestAccount, useTestApp } from '../../../test/helpers.js';

const SCRAPE_TOKEN = 'scrape-token-of-16-chars';

/** A stand-in Prometheus: records each query_range call and answers a matrix per `by` label. */
let prometheus: Server;
let calls: URLSearchParams[] = [];
let failing = false;

beforeAll(async () => {
  prometheus = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://prometheus');
    if (url.pathname !== '/api/v1/query_range') {
      response.writeHead(404).end();
      return;
    }
    calls.push(url.searchParams);
    if (failing) {
      response
        .writeHead(400, { 'content-type': 'application/json' })
        .end(JSON.stringify({ status: 'error', error: 'parse error' }));
      return;
    }
    const query = url.searchParams.get('query') ?? '';
    const start = Number(url.searchParams.get('start'));
    const result = query.includes('by (protocol)')
      ? [
          { metric: { protocol: 'InputRTMP' }, values: [[start, '2000000']] },
          { metric: { protocol: 'InputWebRTC' }, values: [[start, '1000000']] },
        ]
      : query.includes('by (location)')
        ? [
            {
              metric: { location: 'EU' },
              values: [
                [start, '40'],
                [start + 5, 'NaN'],
              ],
            },
          ]
        : [
            {
              metric: {},
              values: [
                [start, '3000000'],
                [start + 60, '3500000'],
              ],
            },
          ];
    response
      .writeHead(200, { 'content-type': 'application/json' })
      .end(JSON.stringify({ status: 'success', data: { resultType: 'matrix', result } }));
  });
  await new Promise<void>((resolve) => prometheus.listen(0, '127.0.0.1', resolve));
});
afterAll(() => new Promise((resolve) => prometheus.close(resolve)));
// The app starts after the stand-in (whose port it is told) and closes before it.
const t = useTestApp(() => ({
  statistics: {
    prometheusUrl: `http://127.0.0.1:${(prometheus.address() as AddressInfo).port}/`,
    scrapeToken: SCRAPE_TOKEN,
  },
}));

let admin: TestAccount;
let owner: TestAccount;
beforeEach(async () => {
  calls = [];
  failing = false;
  admin = await t.createAccount('ADMIN', 'root');
  owner = await t.createAccount('USER', 'alice');
});

const from = '2024-03-01T00:00:00.000Z';
const to = '2024-03-01T12:00:00.000Z';

describe('metric series from Prometheus', () => {
  it('asks query_range for the account-wide series and answers the same shape', async () => {
    const response = await t.request({
      method: 'GET',
      url: `/api/v1/statistics/stream/from/${from}/to/${to}?metrics=IncomingTotal,IncomingByOutputType&processing=Transcode`,
      token: owner.token,
    });
    expect(response.statusCode, response.body).toBe(200);
    const start = Date.parse(from) / 1000;
    expect(response.json()).toEqual({
      result: [
        {
          metric: { labels: { name: 'IncomingTotal' } },
          values: [
            [start, 3e6],
            [start + 60, 3.5e6],
          ],
        },
        { metric: { labels: { name: 'INPUT:RTMP' } }, values: [[start, 2e6]] },
        { metric: { labels: { name: 'INPUT:WebRTC' } }, values: [[start, 1e6]] },
      ],
    });
    expect(calls.map((call) => call.get('query'))).toEqual([
      `sum (streamcloud_stream_metric{name="IncomingBitrate",account="${owner.id}",processing="Transcode"})`,
      `sum by (protocol) (streamcloud_stream_metric{name="IncomingBitrate",account="${owner.id}",processing="Transcode"})`,
    ]);
    expect(calls[0]?.get('start')).toBe(String(start));
    expect(calls[0]?.get('end')).toBe(String(Date.parse(to) / 1000));
    // 12 hours: a step of 60 s keeps the series within 1,000 points.
    expect(calls[0]?.get('step')).toBe('60');
  });

  it('asks for every account when an ADMIN names none, and per location for one stream', async () => {
    await t.request({
      method: 'GET',
      url: `/api/v1/statistics/stream/from/${from}/to/${to}?metrics=ViewersTotal`,
      token: admin.token,
    });
    expect(calls[0]?.get('query')).toBe('sum (streamcloud_stream_metric{name="ConcurrentViewers"})');

    const input = (await t.request({ method: 'POST', url: '/api/v1/inputs', token: owner.token, payload: {} })).json();
    const response = await t.request({
      method: 'GET',
      url: `/api/v1/statistics/stream/${input.id}/from/${from}/to/${to}?metrics=IncomingRTT`,
      token: owner.token,
    });
    expect(calls[1]?.get('query')).toBe(
      `avg by (location) (streamcloud_stream_metric{name="IncomingRTT",stream="${input.id}"})`,
    );
    expect(response.json()).toEqual({
      result: [
        { metric: { labels: { name: 'IncomingRTT', location: 'EU' } }, values: [[Date.parse(from) / 1000, 40]] },
      ],
    });
  });

  it('answers 502 when Prometheus fails', async () => {
    failing = true;
    const response = await t.request({
      method: 'GET',
      url: `/api/v1/statistics/account/${owner.id}/metrics/from/${from}/to/${to}?metrics=IncomingTotal`,
      token: owner.token,
    });
    expect(response.statusCode).toBe(502);
    expect(response.json().message).toBe('The metrics server (Prometheus) is unavailable: parse error');
  });
});

describe('/metrics scrape', () => {
  it('needs the scrape token: 401 without it or with another token, a user JWT included', async () => {
    expect((await t.request({ method: 'GET', url: '/metrics' })).statusCode).toBe(401);
    expect((await t.request({ method: 'GET', url: '/metrics', token: 'wrong-token-of-16-chars' })).statusCode).toBe(
      401,
    );
    expect((await t.request({ method: 'GET', url: '/metrics', token: admin.token })).statusCode).toBe(401);
  });

  it('exposes the latest samples and the usage counters with per-account labels', async () => {
    const node = await t.createNode(admin, { location: { code: 'EU' } });
    const input = (
      await t.request({ method: 'POST', url: '/api/v1/inputs', token: owner.token, payload: { format: 'RTMP' } })
    ).json();
    await t.report(node.token, [
      {
        id: 'm1',
        kind: 'metrics',
        at: new Date(Date.now() - 20_000).toISOString(),
        streams: [{ streamId: input.id, values: { IncomingBitrate: 1e6 } }],
      },
      { id: 'm2', kind: 'metrics', streams: [{ streamId: input.id, sessions: 4, values: { IncomingBitrate: 2e6 } }] },
      { id: 'u1', kind: 'usage', streamId: input.id, outgoing: { duration: 10, upload: 5, download: 700 } },
    ]);
    const response = await t.request({ method: 'GET', url: '/metrics', token: SCRAPE_TOKEN });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    const labels = `account="${owner.id}",stream="${input.id}",node="${node.id}",location="EU",protocol="InputRTMP",processing="Transcode"`;
    expect(response.body).toContain('# TYPE streamcloud_stream_metric gauge');
    expect(response.body).toContain(`streamcloud_stream_metric{${labels},name="IncomingBitrate"} 2000000\n`);
    expect(response.body).toContain(`streamcloud_stream_metric{${labels},name="ConcurrentSessions"} 4\n`);
    expect(response.body).not.toContain('} 1000000\n');
    const usage = `account="${owner.id}",kind="outgoing",protocol="InputRTMP",processing="Transcode"`;
    expect(response.body).toContain(`streamcloud_usage_download_bytes_total{${usage}} 700\n`);
    expect(response.body).toContain(`streamcloud_usage_duration_seconds_total{${usage}} 10\n`);
  });
});
