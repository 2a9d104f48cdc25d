import type { AppServices } from '@/lib/services';
import { previewCredentialQueryOptions } from '../api/create-preview';
import { outputsQueryOptions } from '../api/get-outputs';
import { warmUp } from '../utils/webrtc-signalling';
import { playableOutputs } from './preview-outputs';
import { PreviewPlayer } from './preview-player-lazy';

/**
 * What the dashboard's Preview card needs besides the stream — its outputs, the preview credential and the
 * player's code — started together with the stream rather than after it is known to be live: otherwise
 * each waits for the one before (stream → outputs and credential → player chunk) and the picture comes
 * a few round trips later; the node's WebRTC feed is warmed up too (see warmUp). For a stream that is not
 * live this costs a credential no one uses (nothing is stored for it), the player's ~3 KiB, fetched once,
 * and a warm-up the node refuses.
 */
export async function prefetchPreview(
  { api, queryClient }: Pick<AppServices, 'api' | 'queryClient'>,
  streamId: string,
): Promise<void> {
  const [outputs, credential] = await Promise.all([
    queryClient.fetchInfiniteQuery(outputsQueryOptions(api, streamId)).catch(() => null),
    queryClient.fetchQuery(previewCredentialQueryOptions(api, streamId)).catch(() => null),
    PreviewPlayer.preload().catch(() => null),
  ]);
  // The player's default is WebRTC when there is one: its node may start the stream's feed already (a
  // stream that is not live just says so).
  const first = playableOutputs(outputs?.pages.flatMap((page) => page.items) ?? [])[0];
  const url = first?.format === 'WebRTC' ? first.connection?.signallingUri : undefined;
  if (url && credential) warmUp(url, credential.token);
}
