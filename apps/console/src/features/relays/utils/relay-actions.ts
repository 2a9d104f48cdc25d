import type { Relay } from '@streamcloud/contract';

/**
 * Section 4: Stop only in Relaying and if not yet stopped (in this session, or as the server tells);
 * Delete only in Completed or Error. Nothing while a call on it runs.
 */
export function relayActions(
  relay: Pick<Relay, 'state' | 'stopRequested'>,
  session: { stoppedInSession: boolean; stopping?: boolean; deleting?: boolean },
) {
  return {
    stop: relay.state === 'Relaying' && !relay.stopRequested && !session.stoppedInSession && !session.stopping,
    delete: (relay.state === 'Completed' || relay.state === 'Error') && !session.deleting,
  };
}

/** Autostarting relays first, then the others, each in the server's order (section 2). */
export function splitByAutostart<T extends { autostart: boolean }>(items: readonly T[]) {
  return { autostarting: items.filter((item) => item.autostart), others: items.filter((item) => !item.autostart) };
}
