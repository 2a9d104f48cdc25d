import type { Recording, Storage } from '@streamcloud/contract';
import { startTcpProxy, type TcpProxy } from '../../../api/test/tcp-proxy.js';
import type { ControlPlane } from '../harness.js';
import { waitFor } from '../harness.js';
import { type LocalS3Server, listObjects, startLocalS3 } from '../s3.js';

/**
 * The chaos run's recordings: a local S3 server behind a proxy a fault cuts (the storage unreachable, as when
 * the S3 service is down or the network to it goes), one storage on it, and a recording per chosen stream, each
 * replaced by a new one when it is stopped. What must hold at the end: every recording Completed with its whole
 * file in the bucket, or Error saying why — never silently lost.
 */
export interface RecordedWorld {
  proxy: TcpProxy;
  /** Starts recording a stream (MKV or MP4), replacing the recording it had. */
  record(streamId: string, fileFormat: 'MKV' | 'MP4'): Promise<string>;
  /** Stops the stream's recording (its upload starts) and starts a new one; answers the stopped one's id. */
  restart(streamId: string): Promise<string>;
  /** Stops every recording still running, waits for each to end, and says how each ended. */
  settle(timeoutMs: number): Promise<RecordingOutcome[]>;
  close(): Promise<void>;
}

export interface RecordingOutcome {
  id: string;
  state: Recording['state'];
  duration: number;
  /** Its last warning or error. */
  why: string | null;
  /** Completed: the object is in the bucket with the size the node reported. Error: the reason given. */
  problem: string | null;
}

const BUCKET = 'chaos';

export async function startRecordedWorld(plane: ControlPlane): Promise<RecordedWorld> {
  const s3: LocalS3Server = await startLocalS3([BUCKET]);
  const proxy = await startTcpProxy(s3.port);
  const storage = await plane.api<Storage>('POST', '/storages?check=false', {
    name: 'Chaos recordings',
    type: 'AmazonS3Compatible',
    endpoint: `http://127.0.0.1:${proxy.port}`,
    bucket: BUCKET,
    path: 'chaos',
    ...s3.credentials,
    regionName: null,
  });
  if (storage.status !== 201) throw new Error(`storage: ${storage.status} ${JSON.stringify(storage.body)}`);
  const current = new Map<string, { id: string; fileFormat: 'MKV' | 'MP4' }>();

  async function record(streamId: string, fileFormat: 'MKV' | 'MP4'): Promise<string> {
    const created = await plane.api<Recording>('POST', '/recordings', {
      streamId,
      storageId: storage.body.id,
      fileName: 'chaos_{streamId}_{uuid}',
      fileFormat,
      capture: { source: 'Incoming', tracks: [{ type: 'Video' }, { type: 'Audio' }] },
    });
    if (created.status !== 201) throw new Error(`recording: ${created.status} ${JSON.stringify(created.body)}`);
    current.set(streamId, { id: created.body.id, fileFormat });
    return created.body.id;
  }

  const stop = async (id: string) => {
    const stopped = await plane.api('PUT', `/recordings/${id}/stop`);
    // 409: it is no longer Recording (the node ended it: an Error, or a file it already uploads).
    if (stopped.status !== 200 && stopped.status !== 409) throw new Error(`stop ${id}: ${stopped.status}`);
  };

  return {
    proxy,
    record,
    async restart(streamId) {
      const running = current.get(streamId);
      if (!running) throw new Error(`no recording of ${streamId}`);
      await stop(running.id);
      await record(streamId, running.fileFormat);
      return running.id;
    },
    async settle(timeoutMs) {
      // The streams' recordings: those made here and the continuations the control plane made of them.
      const ofStreams = async () =>
        (
          await Promise.all(
            [...current.keys()].map(
              async (streamId) => (await plane.api<Recording[]>('GET', `/recordings/stream/${streamId}`)).body,
            ),
          )
        ).flat();
      for (const recording of await ofStreams()) if (recording.state === 'Recording') await stop(recording.id);
      const ended = await waitFor(
        ofStreams,
        (recordings) => recordings.every((r) => r.state === 'Completed' || r.state === 'Error'),
        timeoutMs,
        'every recording Completed or Error',
      );
      const objects = await listObjects(s3, BUCKET, 'chaos/');
      // Each stream's newest recording (its continuations included) was still recording at the end.
      const newest = new Set(
        [...current.keys()].map(
          (streamId) =>
            ended.filter((r) => r.streamId === streamId).sort((a, b) => b.createdAt.localeCompare(a.createdAt))[0]?.id,
        ),
      );
      return ended.map((recording) => ({
        id: recording.id,
        state: recording.state,
        duration: recording.duration,
        why: recording.messages.filter((message) => message.level !== 'info').at(-1)?.text ?? null,
        problem:
          newest.has(recording.id) && recording.duration === 0
            ? 'the last recording of its stream recorded nothing: the recording did not go on'
            : problemOf(recording, objects),
      }));
    },
    async close() {
      await proxy.close();
      await s3.close();
    },
  };
}

function problemOf(recording: Recording, objects: Array<{ key: string; size: number }>): string | null {
  if (recording.state === 'Error') {
    const reason = recording.messages.filter((message) => message.level === 'error').at(-1)?.text;
    return reason ? null : 'Error without a reason';
  }
  const object = objects.find((candidate) => candidate.key === recording.objectKey);
  if (!object) return `Completed, but ${recording.objectKey} is not in the bucket`;
  if (object.size !== recording.length || object.size === 0)
    return `Completed, but the object holds ${object.size} of ${recording.length} bytes`;
  return null;
}
