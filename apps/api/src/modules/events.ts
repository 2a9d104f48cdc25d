import type { UnitOfWork } from '../db/unit-of-work.js';

/**
 * The domain events one module publishes and others consume, by name. Empty here: the module that publishes
 * an event declares it from its manifest (`declare module '../events.js' { interface DomainEvents { … } }`).
 */
// biome-ignore lint/suspicious/noEmptyInterface: filled by the modules' declaration merging
export interface DomainEvents {}

export type DomainEventName = keyof DomainEvents;

/** A subscriber: runs on the publisher's unit of work (its transaction), so what it writes is written with the change. */
export type EventHandler<E extends DomainEventName> = (event: DomainEvents[E], uow: UnitOfWork) => Promise<void>;

/** What a unit of work publishes through (`uow.events.publish`). */
export interface Events {
  publish<E extends DomainEventName>(name: E, event: DomainEvents[E]): Promise<void>;
}

/**
 * The app's domain events: who subscribes to what. A publisher does not know its subscribers (the streams
 * module publishes a stream's status change; the webhooks module turns it into a delivery).
 */
export class EventBus {
  private readonly handlers = new Map<DomainEventName, EventHandler<DomainEventName>[]>();

  subscribe<E extends DomainEventName>(name: E, handler: EventHandler<E>): void {
    this.handlers.set(name, [...(this.handlers.get(name) ?? []), handler as EventHandler<DomainEventName>]);
  }

  /** The publishing side of one unit of work: the handlers run one after the other on it. */
  on(uow: UnitOfWork): Events {
    return {
      publish: async (name, event) => {
        const handlers = this.handlers.get(name);
        if (handlers) for (const handler of handlers) await handler(event, uow);
      },
    };
  }
}

declare module '../db/unit-of-work.js' {
  interface UnitOfWorkParts {
    /** Publishes domain events to the modules that subscribe, on this unit of work. */
    events: Events;
  }
}
