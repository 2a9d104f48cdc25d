import type { FastifyInstance } from 'fastify';

/** Runs a job every `intervalMs`, never two at once; a failing run is reported and the next one goes on. */
export class PeriodicJob {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;

  constructor(
    private readonly job: () => Promise<unknown>,
    private readonly intervalMs: number,
    private readonly onError: (error: unknown) => void,
    /** Whether this process runs the job now: one of the API processes sharing a database does (app.ts). */
    private readonly leads: () => boolean = () => true,
  ) {}

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => {
      if (this.running || !this.leads()) return;
      this.running = this.job()
        .then(() => undefined, this.onError)
        .finally(() => {
          this.running = undefined;
        });
    }, this.intervalMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.running;
  }
}

/**
 * A periodic job of the app: it runs every `intervalMs`, in the leading process only, once the app is ready (never with no interval:
 * tests call the job themselves) and is stopped, its current run awaited, when the app closes. A failing
 * run is logged with `what` and the next one goes on.
 */
export function registerPeriodicJob(
  app: FastifyInstance,
  job: { what: string; intervalMs: number | undefined; run: () => Promise<unknown> },
): PeriodicJob {
  const periodic = new PeriodicJob(
    job.run,
    job.intervalMs ?? 0,
    (error) => app.log.error({ err: error }, `${job.what} failed`),
    () => app.leadership.leads(),
  );
  if (job.intervalMs) app.addHook('onReady', async () => periodic.start());
  app.addHook('onClose', () => periodic.stop());
  return periodic;
}
