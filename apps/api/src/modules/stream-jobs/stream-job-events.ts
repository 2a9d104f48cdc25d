/** A recording or a relay as its events name it. */
export interface StreamJobSubject {
  noun: 'recording' | 'relay';
  id: string;
  /** The account of its stream. */
  ownerId: string;
  streamId: string;
  /** Where its owner wants to hear of it; null: nowhere. */
  callbackUri: string | null;
}

/** The events of recordings and relays, published on the transaction of the change. */
export interface StreamJobEventsMap {
  /**
   * A job entered its running state (a run starts), Completed or Error. `present()` is the job as the API
   * answers it, with what its completion adds (a recording's file); `error` the reason of an Error.
   */
  'stream-job.changed': {
    job: StreamJobSubject;
    phase: 'started' | 'completed' | 'error';
    at: Date;
    error?: string;
    present(): Promise<object>;
  };
}

declare module '../events.js' {
  interface DomainEvents extends StreamJobEventsMap {}
}
