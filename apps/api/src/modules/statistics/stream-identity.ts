import { type InputFormat, outputModeOfName, type ProcessingType, protocolOfFormat } from '@streamcloud/contract';
import type { Scope } from '../../db/unit-of-work.js';
import type { StreamDescription } from '../streams/stream-catalog.js';
import type { StreamIdentity } from './usage.repository.js';

/** What usage reads to know who a stream is: its recorded identities and the streams module's catalog. */
export type IdentityScope = Scope<'usage' | 'streamCatalog'>;

export const processingOfName = (name: string): ProcessingType =>
  outputModeOfName(name) === 'AdjustableTranscode' ? 'Transcode' : 'Passthrough';

/**
 * Who a stream is for billing: as recorded on its first report (account, protocol, processing and name
 * never change after) with the stream's current caption; a stream never recorded, as it is now.
 */
export function identityOf(stream: StreamDescription, recorded: StreamIdentity | undefined): StreamIdentity {
  if (recorded) return { ...recorded, caption: stream.caption };
  return {
    streamId: stream.id,
    accountId: stream.ownerId,
    protocol: protocolOfFormat(stream.format as InputFormat),
    processing: processingOfName(stream.name),
    name: stream.name,
    caption: stream.caption,
  };
}

/**
 * The identities of the streams a batch of reports names, recording those seen for the first time and
 * captions changed since: from the stream while it exists, else as recorded. Streams never seen are absent.
 */
export async function recordIdentities(uow: IdentityScope, streamIds: string[]): Promise<Map<string, StreamIdentity>> {
  const ids = [...new Set(streamIds)];
  const [streams, recorded] = await Promise.all([uow.streamCatalog.describe(ids), uow.usage.recordedStreams(ids)]);
  const recordedById = new Map(recorded.map((identity) => [identity.streamId, identity]));
  const found = new Map<string, StreamIdentity>();
  const changed: StreamIdentity[] = [];
  for (const stream of streams) {
    const previous = recordedById.get(stream.id);
    const identity = identityOf(stream, previous);
    if (!previous || previous.caption !== stream.caption) changed.push(identity);
    found.set(stream.id, identity);
  }
  for (const identity of recorded) if (!found.has(identity.streamId)) found.set(identity.streamId, identity);
  await uow.usage.recordStreams(changed);
  return found;
}

/** One stream's identity, recording nothing; null when the stream neither exists nor ever reported. */
export async function currentIdentity(uow: IdentityScope, streamId: string): Promise<StreamIdentity | null> {
  const [[stream], [recorded]] = await Promise.all([
    uow.streamCatalog.describe([streamId]),
    uow.usage.recordedStreams([streamId]),
  ]);
  return stream ? identityOf(stream, recorded) : (recorded ?? null);
}
