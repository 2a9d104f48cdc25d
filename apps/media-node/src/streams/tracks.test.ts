import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Logger } from '../log.js';
import { IncomingTracks, PROBES_AT_ONCE } from './tracks.js';
import type { LiveStream } from './types.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** An ffprobe that notes when each run starts and ends, takes 0.3 s, and answers one H.264 track. */
function countingProbe(dir: string): { path: string; overlap: () => number } {
  const log = join(dir, 'runs.log');
  const path = join(dir, 'ffprobe');
  const answer = JSON.stringify({
    streams: [{ index: 0, codec_type: 'video', codec_name: 'h264', width: 1280, height: 720 }],
    packets: [{ stream_index: 0, size: '1000', duration_time: '1' }],
  });
  writeFileSync(path, `#!/bin/sh\necho "+1" >> ${log}\nsleep 0.3\necho "-1" >> ${log}\necho '${answer}'\n`);
  chmodSync(path, 0o755);
  const overlap = () => {
    let now = 0;
    let most = 0;
    for (const line of readFileSync(log, 'utf8').split('\n').filter(Boolean)) {
      now += Number(line);
      most = Math.max(most, now);
    }
    return most;
  };
  return { path, overlap };
}

describe('incoming tracks of a wave of pushes', () => {
  it(`probes PROBES_AT_ONCE (${PROBES_AT_ONCE}) fragments at a time and reports every stream's tracks`, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tracks-'));
    dirs.push(dir);
    const probe = countingProbe(dir);
    const reported = new Map<string, unknown>();
    const tracks = new IncomingTracks({
      hlsDir: dir,
      ffprobe: probe.path,
      log: { error: () => {}, info: () => {} } as unknown as Logger,
      report: (stream, found) => reported.set(stream.source.hlsName, found),
    });
    const names = ['a', 'b', 'c', 'd', 'e', 'f'];
    for (const name of names) {
      mkdirSync(join(dir, name));
      const stream = {
        source: { hlsName: name, coding: null },
        startedAt: new Date(),
        ended: false,
        transcoding: false,
        assigned: { name },
      } as unknown as LiveStream;
      tracks.live(stream);
    }
    // Their fragments appear together, one a second as a live playlist's do (faster here).
    let fragment = 0;
    const write = () => {
      fragment++;
      for (const name of names) {
        writeFileSync(join(dir, name, `${fragment}.ts`), 'fragment');
        writeFileSync(join(dir, name, 'index.m3u8'), `#EXTM3U\n#EXTINF:1.0,\n${fragment}.ts\n`);
      }
    };
    const live = setInterval(write, 250);
    try {
      await expect.poll(() => reported.size, { timeout: 10_000 }).toBe(names.length);
    } finally {
      clearInterval(live);
    }
    expect(probe.overlap()).toBe(PROBES_AT_ONCE);
    expect(reported.get('a')).toMatchObject({ incoming: [{ codec: 'H264', width: 1280 }] });
  });
});
