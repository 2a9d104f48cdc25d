import type { Recording, Storage, StreamInput } from '@streamcloud/contract';
import { pushTestPattern, waitFor } from './harness.js';
import type { LocalS3Server } from './s3.js';
import { type streamsOf, uriOf } from './streams.js';

/** What the recordings tests share: storages and recordings over the API, pushes, watching a recording's states. */

type Streams = ReturnType<typeof streamsOf>;
type Api = Streams['api'];

/** A storage of the caller's account on the local S3 server (under `path`), through the API. */
export async function createStorage(
  api: Api,
  s3: LocalS3Server,
  options: { bucket?: string; path?: string; endpoint?: string; secretAccessKey?: string } = {},
): Promise<Storage> {
  const created = await api<Storage>('POST', '/storages?check=false', {
    name: `Recordings ${Math.random().toString(36).slice(2, 8)}`,
    type: 'AmazonS3Compatible',
    endpoint: options.endpoint ?? s3.endpoint,
    bucket: options.bucket ?? 'recordings',
    path: options.path ?? 'live/test',
    accessKeyId: s3.credentials.accessKeyId,
    secretAccessKey: options.secretAccessKey ?? s3.credentials.secretAccessKey,
    regionName: null,
  });
  if (created.status !== 201) throw new Error(`storage: ${created.status} ${JSON.stringify(created.body)}`);
  return created.body;
}

export async function createRecording(api: Api, body: Record<string, unknown>): Promise<Recording> {
  const created = await api<Recording>('POST', '/recordings', body);
  if (created.status !== 201) throw new Error(`recording: ${created.status} ${JSON.stringify(created.body)}`);
  return created.body;
}

/** A new RTMP stream recorded (by `recording`, a body of POST /recordings) to a new storage on the local S3 server. */
export async function recordedStream(
  streams: Streams,
  s3: LocalS3Server,
  storageOptions: Parameters<typeof createStorage>[2],
  recording: Record<string, unknown>,
): Promise<{ stream: StreamInput; storage: Storage; recording: Recording }> {
  const storage = await createStorage(streams.api, s3, storageOptions);
  const stream = await streams.createStream({ format: 'RTMP' });
  return {
    stream,
    storage,
    recording: await createRecording(streams.api, { streamId: stream.id, storageId: storage.id, ...recording }),
  };
}

/** Pushes the test pattern for `seconds` and waits for the push to end. */
export async function pushFor(streams: Streams, stream: StreamInput, seconds: number): Promise<void> {
  const push = pushTestPattern(uriOf(stream), 'flv', seconds);
  await streams.status(stream.id, 'Ingestion');
  await push.exited;
}

/**
 * Polls a recording until `accept` holds, keeping every state it was seen in (in order, each once) and
 * the largest figures seen while Recording and while Uploading.
 */
export async function watchRecording(
  api: Api,
  id: string,
  accept: (recording: Recording) => boolean,
  timeoutMs: number,
): Promise<{ last: Recording; states: string[]; recording: Recording[]; uploading: Recording[] }> {
  const states: string[] = [];
  const recording: Recording[] = [];
  const uploading: Recording[] = [];
  const last = await waitFor(
    async () => {
      const answer = (await api<Recording>('GET', `/recordings/${id}`)).body;
      if (states.at(-1) !== answer.state) states.push(answer.state);
      if (answer.state === 'Recording') recording.push(answer);
      if (answer.state === 'Uploading') uploading.push(answer);
      return answer;
    },
    accept,
    timeoutMs,
    `recording ${id}`,
  );
  return { last, states, recording, uploading };
}
