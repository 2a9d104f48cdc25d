import type { KyselyPlugin } from 'kysely';
import { tableWritesPlugin } from './table-writes.js';
import type { TransactionPhase } from './transaction-events.js';

/** The channel the database notifies on every write to what cached answers are read from (migration 0025). */
export const RESPONSE_INVALIDATION_CHANNEL = 'response_invalidation';

/** About 230 full 200-row list pages (each ~70 KB of JSON); past it the oldest answers go. */
const DEFAULT_BUDGET_BYTES = 16 * 1024 * 1024;

interface Entry {
  value: unknown;
  bytes: number;
}

/**
 * Answers read from the database, kept until anything is written: any statement of this process but a
 * select (as it returns), any transaction (as it begins and as it ends), and on the database's notice of a
 * write by another process (RESPONSE_INVALIDATION_CHANNEL). Invalidation is not per account or per row:
 * a write's account is not known for the statements that cascade or run raw SQL, and one rule for every
 * write is one that cannot miss. An answer is stored only if nothing was written while it was read and no
 * transaction is open (its writes would be seen only after the commit), and only while the notices are
 * heard (listening, and not lost since).
 */
export class ResponseCache {
  private readonly entries = new Map<string, Entry>();
  /** The loads under way, with the generation each began in. */
  private readonly loading = new Map<string, { generation: number; answer: Promise<unknown> }>();
  private bytes = 0;
  private generation = 0;
  private openTransactions = 0;
  private live = false;
  /** Tables no cached answer reads (the viewer beacon's): a statement writing only these keeps the answers. */
  private readonly unread = new Set<string>();

  constructor(private readonly budgetBytes = DEFAULT_BUDGET_BYTES) {}

  /**
   * The answer kept under `key`, else `load`'s (kept when nothing was written meanwhile); `bytesOf` weighs it.
   * Readers of a key being loaded share that load while nothing is written: after an invalidation the 20
   * requests in flight would otherwise each run the same query (on PGlite, one after the other).
   */
  async read<T>(key: string, load: () => Promise<T>, bytesOf: (value: T) => number): Promise<T> {
    const entry = this.entries.get(key);
    if (entry) return entry.value as T;
    const flight = this.loading.get(key);
    if (flight?.generation === this.generation) return flight.answer as Promise<T>;
    const mark = this.generation;
    const answer = load();
    this.loading.set(key, { generation: mark, answer });
    try {
      const value = await answer;
      if (this.live && mark === this.generation && this.openTransactions === 0) {
        this.store(key, value, bytesOf(value));
      }
      return value;
    } finally {
      if (this.loading.get(key)?.answer === answer) this.loading.delete(key);
    }
  }

  /** Drops every answer (something was written, or may have been without this process hearing of it). */
  invalidate(): void {
    this.generation++;
    this.entries.clear();
    this.loading.clear();
    this.bytes = 0;
  }

  /** Whether the other processes' writes are heard: answers are kept only while they are. */
  setLive(live: boolean): void {
    this.live = live;
    this.invalidate();
  }

  /** A transaction of this process begins or ends (db/transaction-events.ts). */
  onTransaction(phase: TransactionPhase): void {
    this.openTransactions += phase === 'begin' ? 1 : -1;
    this.invalidate();
  }

  /**
   * A plugin for this process's queries: every statement but a select drops every answer as it returns, except
   * one that writes only tables declared unread (`ignoreWritesTo`).
   */
  localWrites(): KyselyPlugin {
    return tableWritesPlugin({ tables: 'every', except: this.unread }, () => this.invalidate());
  }

  /**
   * Declares tables no cached answer is read from (a module's write-only telemetry: viewer beacons, many a
   * second): a statement of this process that writes only those, outside a transaction, leaves the answers kept.
   */
  ignoreWritesTo(tables: Iterable<string>): void {
    for (const table of tables) this.unread.add(table);
  }

  get size(): number {
    return this.entries.size;
  }

  private store(key: string, value: unknown, bytes: number): void {
    if (bytes > this.budgetBytes) return;
    for (const [oldest, { bytes: freed }] of this.entries) {
      if (this.bytes + bytes <= this.budgetBytes) break;
      this.entries.delete(oldest);
      this.bytes -= freed;
    }
    this.entries.set(key, { value, bytes });
    this.bytes += bytes;
  }
}
