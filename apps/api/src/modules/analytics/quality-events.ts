import type { QualityRule } from '@streamcloud/contract';

/** A stream as its quality events name it. */
export interface QualitySubject {
  id: string;
  ownerId: string;
  /** Where its owner wants to hear of it; null: nowhere. */
  callbackUri: string | null;
}

/** The analytics' events, published on the transaction of the change. */
export interface QualityEventsMap {
  /**
   * A check found a stream's quality rule starting to hold (`Degraded`) or ceasing to (`OK`), and won the change
   * of its state: published once per change whatever the number of API processes checking.
   */
  'quality.changed': {
    stream: QualitySubject;
    state: QualityRule['state'];
    at: Date;
    /** The window the check judged, and what it measured there. */
    check: { from: Date; to: Date; value: number | null; viewers: number };
    /** The rule as the API answers it, after the change. */
    present(): QualityRule;
  };
}

declare module '../events.js' {
  interface DomainEvents extends QualityEventsMap {}
}
