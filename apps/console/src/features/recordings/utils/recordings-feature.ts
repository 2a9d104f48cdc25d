import { type Recording, recordingRoutes } from '@streamcloud/contract';
import type { StreamJobsFeature } from '@/components/stream-jobs/stream-jobs-feature';
import { pollWhileFound } from '@/data/poll';
import { RECORDINGS_POLL_MS, recordingKeys } from '@/data/recordings/keys';
import { deletesResource, savesResource } from '@/data/resource-writes';
import { useRouteMutation } from '@/data/route-mutation';
import { useRouteQuery } from '@/data/route-query';
import { RECORDINGS_TEXTS } from './messages';

/** A stream's recordings, autostarting first; polled while shown, and not asked for again once the stream is gone. */
function useStreamRecordings(streamId: string) {
  return useRouteQuery(
    recordingRoutes.listByStream,
    recordingKeys.stream(streamId),
    { params: { streamId } },
    { refetchInterval: pollWhileFound(RECORDINGS_POLL_MS) },
  );
}

/** PUT /recordings/{id}/stop with an empty body; only in state Recording. */
function useStopRecording() {
  return useRouteMutation(recordingRoutes.stop, {
    toRequest: (id: string) => ({ params: { id } }),
    ...savesResource(recordingKeys),
  });
}

/** Only in Completed or Error. */
function useDeleteRecording() {
  return useRouteMutation(recordingRoutes.delete, {
    toRequest: (id: string) => ({ params: { id } }),
    ...deletesResource(recordingKeys),
  });
}

/** Recordings as stream jobs (section 4): Stop while Recording; the list is polled every 5 seconds. */
export const RECORDINGS: StreamJobsFeature<Recording> = {
  noun: 'recording',
  runningState: 'Recording',
  texts: RECORDINGS_TEXTS,
  useJobs: useStreamRecordings,
  useStop: useStopRecording,
  useDelete: useDeleteRecording,
};
