import type { StreamJob } from './stream-job';

/** The words of a feature's page and of its part of the stream dashboard. */
export interface StreamJobsTexts {
  /** The page title and the dashboard heading: 'Recordings'. */
  title: string;
  /** The create button: 'Add recording'. */
  add: string;
  /** The group after 'Autostarting': 'Other recordings'. */
  others: string;
  /** The page without jobs: 'No recordings yet.' */
  empty: string;
  /** The dashboard without jobs: 'No recordings.' */
  none: string;
  /** The dashboard's link to the page: 'Manage recordings'. */
  manage: string;
  loadFailed: string;
  deleteQuestion: string;
  /** When stopping or deleting fails without a server message. */
  stopFailed: string;
  deleteFailed: string;
}

/** What the pages read of the stream's job list query. */
export interface JobsQuery<T> {
  data: T[] | undefined;
  isPending: boolean;
  isError: boolean;
  error: unknown;
}

/** What the list needs of a mutation on one job id (stop or delete). */
export interface JobMutation {
  mutate: (id: string, options: { onSuccess?: () => void; onError?: (error: Error) => void }) => void;
  isPending: boolean;
  variables: string | undefined;
}

/** A feature of stream jobs (recordings, relays): its words, its running state and its API hooks. */
export interface StreamJobsFeature<T extends StreamJob> {
  /**
   * 'recording': the page's path (`/streams/recording/<stream id>`), element ids (`recording-<id>`) and
   * the list item's `data-recording-id`.
   */
  noun: string;
  /** 'Recording' or 'Relaying': the one state in which Stop is offered. */
  runningState: string;
  texts: StreamJobsTexts;
  /** The stream's jobs, polled. */
  useJobs: (streamId: string) => JobsQuery<T>;
  useStop: () => JobMutation;
  useDelete: () => JobMutation;
}
