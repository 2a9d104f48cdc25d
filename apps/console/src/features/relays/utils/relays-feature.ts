import type { Relay } from '@streamcloud/contract';
import type { StreamJobsFeature } from '@/components/stream-jobs/stream-jobs-feature';
import { useDeleteRelay } from '../api/delete-relay';
import { useStreamRelays } from '../api/get-stream-relays';
import { useStopRelay } from '../api/stop-relay';
import { RELAYS_TEXTS } from './messages';

/** Relays as stream jobs (section 4): Stop while Relaying; the list is polled every 5 seconds. */
export const RELAYS: StreamJobsFeature<Relay> = {
  noun: 'relay',
  runningState: 'Relaying',
  texts: RELAYS_TEXTS,
  useJobs: useStreamRelays,
  useStop: useStopRelay,
  useDelete: useDeleteRelay,
};
