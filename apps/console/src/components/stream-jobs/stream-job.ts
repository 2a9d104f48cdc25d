import type { StatusMessage } from '@streamcloud/contract';

/**
 * What recordings and relays share: work a media node does on a stream, started at once or each time the
 * stream starts (autostart), stopped once, deleted when it is over.
 */
export interface StreamJob {
  id: string;
  streamId: string;
  state: string;
  autostart: boolean;
  stopRequested: boolean;
  callbackUri: string | null;
  /** Bytes sent on: to the storage or to the destination. */
  uploaded: number;
  messages: StatusMessage[];
  createdAt: string;
  updatedAt: string;
}

export interface JobActions {
  stop: boolean;
  delete: boolean;
}

/**
 * Section 4: Stop only while running and only if not stopped yet (in this session, or as the server
 * tells); Delete only in Completed or Error. Nothing while a call on the job runs.
 */
export function jobActions(
  job: Pick<StreamJob, 'state' | 'stopRequested'>,
  runningState: string,
  session: { stoppedInSession: boolean; stopping?: boolean; deleting?: boolean },
): JobActions {
  return {
    stop: job.state === runningState && !job.stopRequested && !session.stoppedInSession && !session.stopping,
    delete: (job.state === 'Completed' || job.state === 'Error') && !session.deleting,
  };
}

/** Autostarting jobs first, then the others, each in the server's order (section 2). */
export function splitByAutostart<T extends { autostart: boolean }>(items: readonly T[]) {
  return { autostarting: items.filter((item) => item.autostart), others: items.filter((item) => !item.autostart) };
}
