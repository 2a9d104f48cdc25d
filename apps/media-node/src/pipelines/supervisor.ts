/** One run of a supervised process: it ends with a failure reason, or null when it ended cleanly. */
export interface SupervisedRun {
  readonly ended: Promise<string | null>;
  stop(): Promise<unknown>;
}

export interface SupervisorOptions {
  /** Starts one run (a process); throwing counts as a failed run. */
  run(): SupervisedRun | Promise<SupervisedRun>;
  /**
   * A run ended while it should go on; `restartInMs` is when the next one starts, `attempt` how many
   * runs in a row have failed (0 after a clean end).
   */
  onEnded?(failure: string | null, restartInMs: number, attempt: number): void;
  /** Too many failures (or a fatal one): nothing is restarted any more. */
  onGiveUp(failure: string): void;
  /** Waits between runs, one per failure in a row (the last repeats); a clean end restarts after the first. */
  backoffMs?: readonly number[];
  /** This many failures within `windowMs` and it gives up. */
  maxFailures?: number;
  windowMs?: number;
  /**
   * Gives up instead once runs have kept failing this long (from the first failure after the last
   * healthy run), however many failures that was; `maxFailures` then does not apply.
   */
  failingForMs?: number;
  /** A failure no retry can mend (a refused key, an unknown host): it gives up at once. */
  fatal?(failure: string): boolean;
}

const BACKOFF_MS = [500, 1000, 2000, 4000, 8000];

/**
 * Keeps a pipeline's process running: restarts it with backoff when it ends, and gives up after
 * `maxFailures` (3) failures within `windowMs` (a minute), or after `failingForMs` of failures. A run
 * that lasted longer than the window, or that the pipeline calls `healthy()` for, clears the backoff.
 * `stop()` ends the current run and every restart.
 */
export class Supervisor {
  private current: SupervisedRun | null = null;
  private timer: NodeJS.Timeout | null = null;
  private failures: number[] = [];
  private inARow = 0;
  /** When the failures in a row began (null: the last run was healthy). */
  private failingSince: number | null = null;
  private stopped = false;
  private readonly backoff: readonly number[];
  private readonly maxFailures: number;
  private readonly windowMs: number;

  constructor(private readonly o: SupervisorOptions) {
    this.backoff = o.backoffMs ?? BACKOFF_MS;
    this.maxFailures = o.maxFailures ?? 3;
    this.windowMs = o.windowMs ?? 60_000;
  }

  get running(): boolean {
    return this.current !== null;
  }

  start(): void {
    void this.launch();
  }

  /** The current run works (e.g. media flows to its destination): the next failure starts the backoff anew. */
  healthy(): void {
    this.inARow = 0;
    this.failingSince = null;
    this.failures = [];
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const current = this.current;
    this.current = null;
    await current?.stop();
  }

  private async launch(): Promise<void> {
    if (this.stopped) return;
    const startedAt = Date.now();
    let run: SupervisedRun;
    try {
      run = await this.o.run();
    } catch (error) {
      this.ended(startedAt, error instanceof Error ? error.message : String(error));
      return;
    }
    if (this.stopped) {
      await run.stop();
      return;
    }
    this.current = run;
    const failure = await run.ended;
    if (this.current !== run) return;
    this.current = null;
    this.ended(startedAt, failure);
  }

  private ended(startedAt: number, failure: string | null): void {
    if (this.stopped) return;
    const now = Date.now();
    if (now - startedAt > this.windowMs) this.healthy();
    if (failure !== null) {
      this.failingSince ??= now;
      this.failures = [...this.failures.filter((at) => now - at < this.windowMs), now];
      const givingUp =
        this.o.fatal?.(failure) ||
        (this.o.failingForMs === undefined
          ? this.failures.length >= this.maxFailures
          : now - this.failingSince >= this.o.failingForMs);
      if (givingUp) {
        this.stopped = true;
        this.o.onGiveUp(failure);
        return;
      }
    }
    const wait = this.backoff[Math.min(this.inARow, this.backoff.length - 1)] ?? 1000;
    if (failure !== null) this.inARow++;
    this.o.onEnded?.(failure, wait, this.inARow);
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.launch();
    }, wait);
    this.timer.unref();
  }
}
