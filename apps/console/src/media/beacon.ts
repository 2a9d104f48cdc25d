import type { BeaconBatch, BeaconEvent, BeaconPlayer } from '@streamcloud/contract';

// The contract's bounds, repeated as plain numbers: importing them would bring zod into the embed's bundle
// (beacon.test.ts holds them equal to the contract's).
/** The API refuses more than 100 events per batch; 40 keeps a batch of long error messages under 16 KiB. */
export const BATCH_EVENTS = 40;
/** How often the queue is sent while playing. */
export const FLUSH_INTERVAL_MS = 10_000;
/** The longest error message sent (the API's limit). */
export const MESSAGE_MAX = 200;

/** An event as the player records it: the time is added by the beacon. */
export type BeaconRecord = BeaconEvent extends infer E ? (E extends BeaconEvent ? Omit<E, 'at'> : never) : never;

export interface BeaconOptions {
  /** `POST /api/v1/play/{outputId}/beacons`. */
  url: string;
  /** The viewer session credential `GET /play/{id}` answered. */
  session: string;
  player: BeaconPlayer;
  /** Sends one batch's JSON; `navigator.sendBeacon` by default (it outlives the page). */
  send?: (url: string, body: string) => void;
  /** A monotonic clock in ms (`performance.now`). */
  now?: () => number;
  /** When the session began on that clock (the playback's start), if before the beacon was made; now by default. */
  origin?: number;
}

export interface Beacon {
  /** Queues one event at the current session time, or at `at` (ms of session time) when it began earlier. */
  record(event: BeaconRecord, at?: number): void;
  /** Sends what is queued now (the page leaves, or the playback ends). */
  flush(): void;
  /** The session time now, in ms since the beacon started. */
  elapsed(): number;
  /** Stops the timer and sends what is left. */
  close(): void;
}

function sendBeacon(url: string, body: string): void {
  const blob = new Blob([body], { type: 'application/json' });
  // sendBeacon queues the request past the page's end; when it refuses (too big, quota), a keepalive fetch.
  if (navigator.sendBeacon?.(url, blob)) return;
  void fetch(url, { method: 'POST', body, keepalive: true, headers: { 'content-type': 'application/json' } }).catch(
    () => {},
  );
}

/**
 * One playback session's beacon: events are queued and sent every FLUSH_INTERVAL_MS, when the page is hidden or
 * left (`pagehide`, `visibilitychange`: a viewer closing the tab gives no other warning), and at once when a
 * batch is full — so the queue never holds more than BATCH_EVENTS (sending hands the batch to the browser).
 */
export function createBeacon(options: BeaconOptions): Beacon {
  const now = options.now ?? (() => performance.now());
  const send = options.send ?? sendBeacon;
  const origin = options.origin ?? now();
  const queue: BeaconEvent[] = [];
  const elapsed = () => Math.max(0, Math.round(now() - origin));

  const flush = () => {
    while (queue.length > 0) {
      const batch: BeaconBatch = {
        session: options.session,
        player: options.player,
        sentAt: elapsed(),
        events: queue.splice(0, BATCH_EVENTS),
      };
      send(options.url, JSON.stringify(batch));
    }
  };
  const onHide = () => {
    if (document.visibilityState === 'hidden') flush();
  };
  const timer = setInterval(flush, FLUSH_INTERVAL_MS);
  addEventListener('pagehide', flush);
  document.addEventListener('visibilitychange', onHide);

  return {
    record(event, at = elapsed()) {
      const bounded =
        event.type === 'error' && event.message ? { ...event, message: event.message.slice(0, MESSAGE_MAX) } : event;
      queue.push({ ...bounded, at } as BeaconEvent);
      if (queue.length >= BATCH_EVENTS) flush();
    },
    flush,
    elapsed,
    close() {
      clearInterval(timer);
      removeEventListener('pagehide', flush);
      document.removeEventListener('visibilitychange', onHide);
      flush();
    },
  };
}
