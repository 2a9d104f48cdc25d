import type { AppServices } from '@/lib/services';
import { previewCredentialQueryOptions } from '../api/create-preview';
import { outputsQueryOptions } from '../api/get-outputs';
import { PreviewPlayer } from './preview-player-lazy';

/**
 * What the dashboard's Preview card needs besides the stream — its outputs, the preview credential and the
 * player's code — started together with the stream rather than after it is known to be live: otherwise
 * each waits for the one before (stream → outputs and credential → player chunk) and the picture comes
 * a few round trips later. For a stream that is not live this costs a credential no one uses (nothing is
 * stored for it) and the player's ~3 KiB, fetched once.
 */
export function prefetchPreview({ api, queryClient }: Pick<AppServices, 'api' | 'queryClient'>, streamId: string) {
  return Promise.all([
    queryClient.prefetchInfiniteQuery(outputsQueryOptions(api, streamId)),
    queryClient.prefetchQuery(previewCredentialQueryOptions(api, streamId)),
    PreviewPlayer.preload().catch(() => null),
  ]);
}
