import { execFile } from 'node:child_process';
import { EventEmitter } from 'node:events';
import type { ServerResponse } from 'node:http';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { fmp4OutputArgs } from './files.js';
import { LowLatencyPackager } from './packager.js';
import { serveLowLatency } from './serve.js';

const run = promisify(execFile);
let media: Buffer;

/** 2 s of a 160x90 pattern and a tone as the packaging ffmpeg writes a push. */
beforeAll(async () => {
  const output = fmp4OutputArgs(1 / 3).filter((arg, i, all) => arg !== 'copy' && all[i + 1] !== 'copy');
  const { stdout } = await run(
    'ffmpeg',
    [
      ...['-hide_banner', '-loglevel', 'error', '-f', 'lavfi', '-i', 'testsrc2=size=160x90:rate=30'],
      ...['-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=48000', '-t', '2'],
      ...['-c:v', 'libx264', '-preset', 'ultrafast', '-g', '30', '-bf', '0', '-c:a', 'aac', ...output],
    ],
    { encoding: 'buffer', maxBuffer: 64 * 1024 * 1024 },
  );
  media = stdout;
}, 30_000);

/** The response end of the node's HTTP server: what the handler answered. */
function response() {
  const answer = { status: 0, body: '', destroyed: false, writableFinished: false };
  return Object.assign(new EventEmitter(), answer, {
    writeHead(status: number) {
      answer.status = status;
      return this;
    },
    end(body: Buffer | string) {
      answer.body = String(body);
      answer.writableFinished = true;
    },
    answer,
  });
}

describe('a Low latency output’s playlist', () => {
  it('is rendered once per packager state for every session, each answer with its own query, never stale', async () => {
    const packager = new LowLatencyPackager({ partTarget: 1 / 3, segmentMin: 1, keepSegments: 12, maxBytes: 1 << 24 });
    const renditionReports = [{ uri: '../r1/index.m3u8', lastMsn: 1, lastPart: 2 }];
    const ask = async (sid: string) => {
      const answered = response();
      await serveLowLatency(answered as unknown as ServerResponse, {
        packager,
        file: 'index.m3u8',
        query: new URLSearchParams(),
        suffix: `?sid=${sid}`,
        count: () => undefined,
        windowSeconds: 0,
        renditionReports,
      });
      expect(answered.answer.status).toBe(200);
      return answered.answer.body;
    };
    const direct = (sid: string) =>
      packager.playlist({
        uri: (file) => `${file}?sid=${sid}`,
        renditionReports: renditionReports.map((report) => ({ ...report, uri: `${report.uri}?sid=${sid}` })),
      });
    packager.write(media.subarray(0, Math.floor(media.length / 2)));
    const first = await ask('a');
    expect(first).toBe(direct('a'));
    expect(first).toContain('#EXT-X-RENDITION-REPORT:URI="../r1/index.m3u8?sid=a"');
    expect(await ask('b')).toBe(direct('b'));
    // The rest of the media: new parts and segments, then the end; every session sees them at once.
    packager.write(media.subarray(Math.floor(media.length / 2)));
    packager.end();
    const last = await ask('b');
    expect(last).not.toBe(first.replaceAll('sid=a', 'sid=b'));
    expect(last).toBe(direct('b'));
    expect(last).toContain('#EXT-X-ENDLIST');
    expect(await ask('a')).toBe(direct('a'));
  });
});
