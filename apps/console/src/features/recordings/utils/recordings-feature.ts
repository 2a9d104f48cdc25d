import type { Recording } from '@streamcloud/contract';
import type { StreamJobsFeature } from '@/components/stream-jobs/stream-jobs-feature';
import { useDeleteRecording } from '../api/delete-recording';
import { useStreamRecordings } from '../api/get-stream-recordings';
import { useStopRecording } from '../api/stop-recording';
import { RECORDINGS_TEXTS } from './messages';

/** Recordings as stream jobs (section 4): Stop while Recording; the list is polled every 5 seconds. */
export const RECORDINGS: StreamJobsFeature<Recording> = {
  noun: 'recording',
  runningState: 'Recording',
  texts: RECORDINGS_TEXTS,
  useJobs: useStreamRecordings,
  useStop: useStopRecording,
  useDelete: useDeleteRecording,
};
