import type { Recording } from '@streamcloud/contract';

export interface RecordingActions {
  stop: boolean;
  delete: boolean;
}

/**
 * Section 4: Stop only in Recording and only if not already stopped in this session (nor asked to stop
 * already, as the server tells); Delete only in Completed or Error. Nothing while a call on it runs.
 */
export function recordingActions(
  recording: Pick<Recording, 'state' | 'stopRequested'>,
  session: { stoppedInSession: boolean; stopping?: boolean; deleting?: boolean },
): RecordingActions {
  return {
    stop: recording.state === 'Recording' && !recording.stopRequested && !session.stoppedInSession && !session.stopping,
    delete: (recording.state === 'Completed' || recording.state === 'Error') && !session.deleting,
  };
}

/** Autostarting recordings first, then the others, each in the server's order (section 2). */
export function splitByAutostart<T extends { autostart: boolean }>(items: readonly T[]) {
  return { autostarting: items.filter((item) => item.autostart), others: items.filter((item) => !item.autostart) };
}
