import { EventEmitter } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { GuardedChild } from '../../child.js';
import { LowLatencyPackagers } from '../../ll-hls/packagers.js';
import { createLogger } from '../../log.js';
import { StreamEvents } from '../../streams/events.js';
import { RenditionPackaging } from './rendition-packaging.js';

/** A pull's ffmpeg as the packaging sees it: its stdout only. */
const pullFfmpeg = () => ({ stdout: new EventEmitter() }) as unknown as GuardedChild & { stdout: EventEmitter };

describe('RenditionPackaging', () => {
  let dir: string;
  let packagers: LowLatencyPackagers;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'rendition-packaging-'));
    packagers = new LowLatencyPackagers(new StreamEvents(createLogger('silent')), {
      dataDir: dir,
      dvrMaxBytes: 1024 ** 3,
    });
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("leaves a ladder's variants alone when the stream pulled whole, packaged before the ladder came, writes", () => {
    // The stream pulled whole (for its RTMP viewers) started while the origin had no ladder yet: packaged as key null.
    const whole = new RenditionPackaging(packagers, 'stream', null, [null]);
    const ffmpeg = pullFfmpeg();
    const failures: string[] = [];
    whole.attach(ffmpeg, (failure) => failures.push(failure));
    // The ladder came: a rendition's pull packages its variant here.
    const r1 = packagers.begin('stream', 'r1', ['r0', 'r1']);
    ffmpeg.stdout.emit('data', Buffer.from('the whole stream, as fMP4'));
    // The rendition's playlist is still served; the key-null variant never began (it would have retired r1).
    expect(packagers.of('stream', 'r1')).toBe(r1);
    expect(packagers.of('stream', null)).toBeNull();
    expect(packagers.fedByPull('stream', null)).toBe(false);
    expect(failures).toEqual([]);
  });
});
