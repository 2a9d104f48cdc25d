import { outputsQueryOptions } from '@/data/streams/outputs';
import { previewCredentialQueryOptions } from '@/data/streams/preview';
import type { AppServices } from '@/lib/services';
import { preconnectWhep } from '@/media/whep-playback';
import { playableOutputs } from '../utils/preview-outputs';
import { PreviewPlayer } from './preview-player-lazy';

/**
 * What the dashboard's Preview card needs besides the stream — its outputs, the preview credential and the
 * player's code — started together with the stream rather than after it is known to be live: otherwise
 * each waits for the one before (stream → outputs and credential → player chunk) and the picture comes
 * a few round trips later. With the outputs and the credential in, the default WebRTC output's connection
 * is opened at once (preconnectWhep: its offer is made meanwhile), not once the player has arrived and rendered: the node answers, ICE
 * and DTLS come up and the first frames arrive while the page still loads. For a stream that is not live
 * this costs a credential no one uses (nothing is stored for it), the player's ~3 KiB, fetched once, and
 * an offer the node refuses.
 */
export async function prefetchPreview(
  { api, queryClient }: Pick<AppServices, 'api' | 'queryClient'>,
  streamId: string,
): Promise<void> {
  const target = Promise.all([
    queryClient.fetchInfiniteQuery(outputsQueryOptions(api, streamId)).catch(() => null),
    queryClient.fetchQuery(previewCredentialQueryOptions(api, streamId)).catch(() => null),
  ]).then(([outputs, credential]) => {
    // The player's default: WebRTC when there is one.
    const first = playableOutputs(outputs?.pages.flatMap((page) => page.items) ?? [])[0];
    const url = first?.format === 'WebRTC' ? first.connection?.signallingUri : undefined;
    return url && credential ? { url, token: credential.token } : null;
  });
  // The peer connection and its offer are made while the reads are on their way.
  preconnectWhep(target);
  await Promise.all([target, PreviewPlayer.preload().catch(() => null)]);
}
