import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Reporter } from '../control-plane.js';
import { createLogger } from '../log.js';
import { type AssignedStream, StreamDirectory } from './directory.js';
import { StreamManager } from './manager.js';

const hlsDir = mkdtempSync(join(tmpdir(), 'streamcloud-manager-'));
afterAll(() => rmSync(hlsDir, { recursive: true, force: true }));

/** A stream ingested on another node, as an edge's directory lists it, with the status the control plane shows. */
const pulledStream = (status: string) =>
  ({
    id: '00000000-0000-4000-8000-0000000000b1',
    name: 'in+b1',
    ingressName: null,
    format: 'RTMP',
    access: 'Public',
    accessToken: null,
    previousAccessToken: null,
    status,
    origin: { nodeId: 'origin', nodeName: 'origin', hostname: '127.0.0.1', rtmpPort: 1935, credential: 'x' },
    outputs: [],
    versions: {},
  }) as unknown as AssignedStream;

/** An edge's stream manager, what it said was over (`gone`), and a read of the stream with `status`. */
function edge() {
  const directory = new StreamDirectory();
  const manager = new StreamManager({
    directory,
    reporter: {} as Reporter,
    log: createLogger('silent'),
    hlsDir,
    ffprobe: 'ffprobe',
    reconnectGraceMs: 1000,
  });
  const gone: string[] = [];
  manager.events.subscribe({ gone: (streamId) => gone.push(streamId) });
  const read = (status: string) => manager.reconcile(0, directory.replace([pulledStream(status)]));
  return { manager, gone, read };
}

describe('an edge: a pulled stream is over (gone) once the control plane shows it over', () => {
  it('not while the edge still pulls it (the origin silent to the control plane), but once the pull ended', () => {
    const { manager, gone, read } = edge();
    read('Ingestion');
    const handle = { rawName: 'b1', remoteAddress: null, bytesIn: () => 0, bytesOut: () => 0, kick: () => undefined };
    const stream = manager.startPulled(pulledStream('Ingestion'), 'origin', handle);
    expect(stream).not.toBeNull();
    // The control plane stopped hearing from the origin: the stream shows Error, but its media still comes here.
    read('Error');
    read('Error');
    expect(gone).toEqual([]);
    // The origin ended the pull: over at the next read that still shows it over.
    if (stream) manager.endPush(stream, null, { byOrigin: true });
    expect(gone).toEqual([]);
    read('Error');
    expect(gone).toEqual([pulledStream('Error').id]);
  });

  it("not while a ladder's rendition is pulled here (its viewers' HLS), with no pull of the stream whole", () => {
    const { manager, gone, read } = edge();
    let renditionPulled = true;
    manager.pulledHere = () => renditionPulled;
    read('Ingestion');
    read('Error');
    expect(gone).toEqual([]);
    renditionPulled = false;
    read('Error');
    expect(gone).toEqual([pulledStream('Error').id]);
  });
});
