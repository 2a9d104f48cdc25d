import { pipeline, Readable, Transform } from 'node:stream';
import { DeleteObjectCommand, GetObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { RECORDING_LINK_TTL_SECONDS, type RecordingFileFormat } from '@streamcloud/contract';
import { credentialScheme } from '@streamcloud/contract/signed-credential';
import type { GuardedAgents } from '@streamcloud/net-guard';
import { createS3Client, describeFailure, type S3Target, type SdkError } from '@streamcloud/s3';
import { AppError, notFound } from '../../lib/errors.js';
import type { ServedTraffic } from '../statistics/index.js';

/**
 * Links to a recording's file and the file itself, streamed from the recording's storage by the control
 * plane (docs/decisions.md, "Recordings you can watch"): the customer's bucket may be private and without
 * CORS, and a byte range goes through unchanged, so a player seeks. A link's token
 * (`rf1.<play|save>.<expiry>.<signature>`, signed per recording with a key derived from the API's secret)
 * is its only credential: nothing is stored, it works until it expires.
 */
const links = credentialScheme('rf1', 'recording-files', 1);
const DISPOSITIONS = ['play', 'save'] as const;
type Disposition = (typeof DISPOSITIONS)[number];

export const CONTENT_TYPES: Record<RecordingFileFormat, string> = { MP4: 'video/mp4', MKV: 'video/x-matroska' };
/** One byte range (`bytes=a-b`, `bytes=a-`, `bytes=-n`): passed to the storage as it is; several are ignored. */
const SINGLE_RANGE = /^bytes=(\d{1,15}-\d{0,15}|-\d{1,15})$/;
/**
 * How long the storage may be silent: connecting, its first answer, and the body's bytes, which a player stops
 * reading for a while once its buffer is full (no deadline on the whole body: a download takes what it takes).
 */
const STORAGE_IDLE_MS = 60_000;

export interface RecordingFile {
  status: 200 | 206;
  headers: Record<string, string>;
  body: NodeJS.ReadableStream;
}

export class RecordingFiles {
  constructor(
    private readonly signingKey: string,
    /** The guarded agents every storage call goes through (lib/outbound.ts: users' destinations). */
    private readonly agents: GuardedAgents,
    /** Where the bytes sent of a file are billed: the stream's outgoing traffic. */
    private readonly served: Pick<ServedTraffic, 'count'>,
    /** What the files are of, in messages (the clips module serves its files with the same links). */
    private readonly noun: 'recording' | 'clip' = 'recording',
  ) {}

  /** A link's token for the recording: `save` makes the file an attachment. */
  token(recordingId: string, disposition: Disposition, expiresAt: Date): string {
    return links.sign(this.key(recordingId), recordingId, [disposition], expiresAt);
  }

  expiry(now: Date): Date {
    return new Date(now.getTime() + RECORDING_LINK_TTL_SECONDS * 1000);
  }

  /** The disposition of a valid, unexpired token for the recording; null otherwise. */
  verify(recordingId: string, token: string, now: Date): Disposition | null {
    const [disposition] = links.verify(this.key(recordingId), recordingId, token, now) ?? [];
    return DISPOSITIONS.find((known) => known === disposition) ?? null;
  }

  /**
   * The object (or the asked range of it) from the storage, with the headers a player needs; the bytes of its
   * body that reach the connection are billed to the stream. `contentType`: the file's, when not by its format.
   */
  async open(
    target: S3Target,
    object: { key: string; format: RecordingFileFormat; streamId: string; contentType?: string },
    disposition: Disposition,
    range: string | undefined,
  ): Promise<RecordingFile> {
    const answer = await this.get(target, object.key, range && SINGLE_RANGE.test(range) ? range : undefined);
    const fileName = object.key.split('/').pop() ?? this.noun;
    const headers: Record<string, string> = {
      'content-type': object.contentType ?? CONTENT_TYPES[object.format],
      'accept-ranges': 'bytes',
      'content-disposition': `${disposition === 'save' ? 'attachment' : 'inline'}; filename="${fileName.replace(/["\\\r\n]/g, '_')}"`,
    };
    if (answer.ContentLength !== undefined) headers['content-length'] = String(answer.ContentLength);
    if (answer.ContentRange) headers['content-range'] = answer.ContentRange;
    return {
      status: answer.ContentRange ? 206 : 200,
      headers,
      body: this.metered(answer.Body as NodeJS.ReadableStream, object.streamId),
    };
  }

  /**
   * A small text object whole (a clip's storyboard VTT, which the service rewrites): a 404 when absent, a 502 when
   * larger than `maxBytes` or the storage fails. Not billed: what is sent of it is (`text`).
   */
  async readText(target: S3Target, key: string, maxBytes: number): Promise<string> {
    const answer = await this.get(target, key, undefined);
    if ((answer.ContentLength ?? 0) > maxBytes)
      throw new AppError(
        502,
        'STORAGE_OBJECT_TOO_LARGE',
        `The ${this.noun}'s ${key.split('/').pop()} is over ${maxBytes} bytes`,
      );
    return (answer.Body as { transformToString(): Promise<string> }).transformToString();
  }

  /** A text made here (a rewritten VTT) as a file, its bytes billed to the stream as they are sent. */
  text(text: string, contentType: string, streamId: string): RecordingFile {
    const bytes = Buffer.from(text);
    return {
      status: 200,
      headers: { 'content-type': contentType, 'content-length': String(bytes.length) },
      body: this.metered(Readable.from([bytes]), streamId),
    };
  }

  /** GetObject through the guarded agents, its failures as the answers a caller gets. */
  private get(target: S3Target, key: string, range: string | undefined) {
    const client: S3Client = createS3Client(target, { timeoutMs: STORAGE_IDLE_MS, agents: this.agents });
    return client
      .send(new GetObjectCommand({ Bucket: target.bucket, Key: key, ...(range ? { Range: range } : {}) }))
      .catch((error: SdkError) => {
        if (error.name === 'NoSuchKey') throw notFound(`The ${this.noun}'s file in the storage`);
        if (error.name === 'InvalidRange' || error.$metadata?.httpStatusCode === 416)
          throw new AppError(416, 'RANGE_NOT_SATISFIABLE', 'The range asked for is outside the file');
        throw new AppError(
          502,
          'STORAGE_UNREACHABLE',
          `The ${this.noun}'s storage did not serve the file: ${describeFailure(error, target, 'bucket', key, STORAGE_IDLE_MS)}`,
        );
      });
  }

  /**
   * The body, counting each chunk as it is handed on to the response (a range counts its bytes; a viewer who
   * goes away stops the storage's body and the count, so an aborted download counts what was sent, give or
   * take the connection's buffers), billed once when the body closes however it ends.
   */
  private metered(body: NodeJS.ReadableStream, streamId: string): Transform {
    let bytes = 0;
    const counter = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        bytes += chunk.length;
        done(null, chunk);
      },
    });
    counter.once('close', () => this.served.count(streamId, bytes));
    // The response destroys the counter when the viewer goes away, and the pipeline the storage's body with it;
    // a failing body fails the counter, which the response ends on. Nothing is left to report here.
    pipeline(body, counter, () => {});
    return counter;
  }

  /** Removes an object from the storage; answers the failure's words, or null once it is gone. */
  async remove(target: S3Target, key: string): Promise<string | null> {
    const client: S3Client = createS3Client(target, { timeoutMs: 10_000, agents: this.agents });
    try {
      await client.send(new DeleteObjectCommand({ Bucket: target.bucket, Key: key }));
      return null;
    } catch (error) {
      return describeFailure(error as SdkError, target, 'cleanup', key, 10_000);
    }
  }

  private key(recordingId: string): string {
    return links.keyOf(this.signingKey, recordingId);
  }
}
