import type { IncomingMessage, ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import type { FrontEndContext, FrontEndKind } from './front-end.js';
import { FrontEnds } from './front-ends.js';
import type { RouteRequest } from './http/server.js';

/** A kind that records its starts and stops in `log`, on `port`, answering `hls` when `answers`. */
function kind(
  name: string,
  log: string[],
  o: Partial<Pick<FrontEndKind, 'needs' | 'port' | 'routes'>> & { answers?: boolean } = {},
): FrontEndKind<string> {
  return {
    name,
    needs: o.needs ?? [],
    ...(o.port ? { port: o.port } : {}),
    ...(o.routes ? { routes: o.routes } : {}),
    async start({ frontEnds }) {
      log.push(`start ${name} (http ${frontEnds.portOf('http')})`);
      return {
        server: `${name} server`,
        port: 1000 + log.length,
        ...(o.answers ? { routes: { hls: async (_request, response) => void response.end(name) } } : {}),
        stop: () => void log.push(`stop ${name}`),
      };
    },
  };
}

/** What a route handler answered: status and body. */
async function answer(handler: ReturnType<FrontEnds['route']>): Promise<{ status: number; body: string }> {
  let status = 200;
  let body = '';
  const response = {
    destroyed: false,
    writeHead(code: number) {
      status = code;
      return this;
    },
    setHeader() {},
    end(data?: string | Buffer) {
      body = String(data ?? '');
    },
  } as unknown as ServerResponse;
  await handler({} as IncomingMessage, response, {} as RouteRequest);
  return { status, body };
}

const message = (text: string) => JSON.stringify({ message: text });
const context = {} as Omit<FrontEndContext, 'frontEnds'>;

describe('FrontEnds', () => {
  it('starts the kinds in order, those whose tools are here, and stops them in reverse', async () => {
    const log: string[] = [];
    const http = kind('control-api', log, { port: 'http' });
    const rtmp = kind('rtmp', log, { needs: ['nginx'], port: 'rtmp' });
    const srt = kind('srt', log, { needs: ['nginx', 'ffmpeg'], port: 'srt' });
    const frontEnds = new FrontEnds([http, rtmp, srt]);
    await frontEnds.start(context, new Map([['ffmpeg', 'ffmpeg is missing']]));
    expect(log).toEqual(['start control-api (http 0)', 'start rtmp (http 1001)']);
    expect(frontEnds.get(rtmp)).toBe('rtmp server');
    expect(frontEnds.get(srt)).toBeNull();
    expect(frontEnds.portOf('rtmp')).toBe(1002);
    expect(frontEnds.portOf('srt')).toBe(0);
    await frontEnds.stop();
    expect(log.slice(2)).toEqual(['stop rtmp', 'stop control-api']);
    expect(frontEnds.get(rtmp)).toBeNull();
  });

  it("answers a route with its running front end, else with its kind's answer for when it does not run", async () => {
    const unavailable = { hls: { status: 503, message: 'HLS is not available on this node' } };
    const hls = kind('hls', [], { needs: ['nginx'], routes: unavailable, answers: true });
    const running = new FrontEnds([hls]);
    await running.start(context, new Map());
    expect(await answer(running.route('hls'))).toEqual({ status: 200, body: 'hls' });
    const without = new FrontEnds([hls]);
    await without.start(context, new Map([['nginx', 'nginx is missing']]));
    expect(await answer(without.route('hls'))).toEqual({
      status: 503,
      body: message('HLS is not available on this node'),
    });
    expect(await answer(without.route('whip'))).toEqual({ status: 404, body: message('Not found') });
  });
});
