/** Offers answered whose connection is not up yet, at most this many per client address… */
export const PENDING_OFFERS_PER_ADDRESS = 10;
/** …and per stream or output name (its endpoint's). */
export const PENDING_OFFERS_PER_NAME = 40;
/** What a refused offer is told to wait: pending offers connect within seconds, or are dropped within 20 s. */
export const OFFER_RETRY_AFTER_SECONDS = 5;

/** A pending offer's place in the bounds; `release()` gives it back (once, whatever calls it). */
export interface OfferSlot {
  release(): void;
}

/**
 * The bound on WHIP or WHEP offers that have not connected (yet): each costs a peer connection, its sockets and a
 * 20 s wait, and a client that never connects could otherwise hold them by the hundred. An offer takes a slot of
 * its address and of its name before it is admitted and gives it back once its connection is up or it ended; the
 * counters hold only the names and addresses with offers pending.
 */
export class PendingOffers {
  private readonly byAddress = new Map<string, number>();
  private readonly byName = new Map<string, number>();

  /** A slot for an offer from `address` to `name`, or why not (the bound it would pass). */
  take(address: string | null, name: string): OfferSlot | { refused: string } {
    const from = address ?? 'unknown';
    if ((this.byAddress.get(from) ?? 0) >= PENDING_OFFERS_PER_ADDRESS)
      return {
        refused: `${PENDING_OFFERS_PER_ADDRESS} offers from this address are waiting to connect: try again later`,
      };
    if ((this.byName.get(name) ?? 0) >= PENDING_OFFERS_PER_NAME)
      return { refused: `${PENDING_OFFERS_PER_NAME} offers to ${name} are waiting to connect: try again later` };
    add(this.byAddress, from, 1);
    add(this.byName, name, 1);
    let held = true;
    return {
      release: () => {
        if (!held) return;
        held = false;
        add(this.byAddress, from, -1);
        add(this.byName, name, -1);
      },
    };
  }

  /** Offers pending now. */
  get count(): number {
    let sum = 0;
    for (const count of this.byAddress.values()) sum += count;
    return sum;
  }
}

function add(counts: Map<string, number>, key: string, by: number): void {
  const next = (counts.get(key) ?? 0) + by;
  if (next > 0) counts.set(key, next);
  else counts.delete(key);
}
