/** A clip as its events name it. */
export interface ClipSubject {
  id: string;
  /** The account of its stream (null: the stream is gone meanwhile). */
  ownerId: string | null;
  streamId: string;
  /** Where its owner wants to hear of it; null: nowhere. */
  callbackUri: string | null;
}

/** The clips' events, published on the transaction of the change. */
export interface ClipEventsMap {
  /** A clip became Ready or went to Error; `present()` is the clip as the API answers it, `error` the reason. */
  'clip.finished': {
    clip: ClipSubject;
    state: 'Ready' | 'Error';
    at: Date;
    error: string | null;
    present(): Promise<object>;
  };
}

declare module '../events.js' {
  interface DomainEvents extends ClipEventsMap {}
}
