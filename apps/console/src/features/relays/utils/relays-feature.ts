import { type Relay, relayRoutes } from '@streamcloud/contract';
import type { StreamJobsFeature } from '@/components/stream-jobs/stream-jobs-feature';
import { pollWhileFound } from '@/data/poll';
import { RELAYS_POLL_MS, relayKeys } from '@/data/relays/keys';
import { deletesResource, savesResource } from '@/data/resource-writes';
import { useRouteMutation } from '@/data/route-mutation';
import { useRouteQuery } from '@/data/route-query';
import { RELAYS_TEXTS } from './messages';

/** A stream's relays, autostarting first; polled while shown, and not asked for again once the stream is gone. */
function useStreamRelays(streamId: string) {
  return useRouteQuery(
    relayRoutes.listByStream,
    relayKeys.stream(streamId),
    { params: { streamId } },
    { refetchInterval: pollWhileFound(RELAYS_POLL_MS) },
  );
}

/** PUT /relays/{id}/stop with an empty body; only in state Relaying. */
function useStopRelay() {
  return useRouteMutation(relayRoutes.stop, {
    toRequest: (id: string) => ({ params: { id } }),
    ...savesResource(relayKeys),
  });
}

/** Only in Completed or Error. */
function useDeleteRelay() {
  return useRouteMutation(relayRoutes.delete, {
    toRequest: (id: string) => ({ params: { id } }),
    ...deletesResource(relayKeys),
  });
}

/** Relays as stream jobs (section 4): Stop while Relaying; the list is polled every 5 seconds. */
export const RELAYS: StreamJobsFeature<Relay> = {
  noun: 'relay',
  runningState: 'Relaying',
  texts: RELAYS_TEXTS,
  useJobs: useStreamRelays,
  useStop: useStopRelay,
  useDelete: useDeleteRelay,
};
