import { type Clip, clipRoutes } from '@streamcloud/contract';
import { useRouteQuery } from '@/data/route-query';
import { CLIPS_POLL_MS, clipKeys } from './keys';

const cutting = (clips: Clip[] | undefined) =>
  clips?.some((clip) => clip.state === 'Pending' || clip.state === 'Processing') ?? false;

/** A stream's clips, newest first; re-read while a clip is being cut (it is Ready within seconds), not otherwise. */
export function useStreamClips(streamId: string) {
  return useRouteQuery(
    clipRoutes.list,
    clipKeys.stream(streamId),
    { query: { streamId } },
    { refetchInterval: (query) => (cutting(query.state.data) ? CLIPS_POLL_MS : false) },
  );
}
