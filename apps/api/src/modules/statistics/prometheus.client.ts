import type { GuardedFetch } from '@streamcloud/net-guard';
import { AppError } from '../../lib/errors.js';

export interface PrometheusSeries {
  metric: Record<string, string>;
  values: Array<[number, number]>;
}

/** Reads range queries from a Prometheus server (`GET /api/v1/query_range`). */
export class PrometheusClient {
  private readonly base: string;

  constructor(
    url: string,
    private readonly fetchFn: GuardedFetch,
    private readonly timeoutMs = 10_000,
  ) {
    this.base = url.replace(/\/+$/, '');
  }

  async queryRange(query: string, fromSeconds: number, toSeconds: number, step: number): Promise<PrometheusSeries[]> {
    const params = new URLSearchParams({
      query,
      start: String(fromSeconds),
      end: String(toSeconds),
      step: String(step),
    });
    let body: unknown;
    try {
      const response = await this.fetchFn(`${this.base}/api/v1/query_range?${params}`, {
        headers: { accept: 'application/json' },
        signal: AbortSignal.timeout(this.timeoutMs),
        redirect: 'error',
      });
      body = await response.json().catch(() => undefined);
      if (!response.ok) {
        const reason = (body as { error?: string } | undefined)?.error ?? `HTTP ${response.status}`;
        throw unavailable(reason);
      }
    } catch (error) {
      if (error instanceof AppError) throw error;
      throw unavailable(error instanceof Error ? error.message : String(error));
    }
    const data = (body as { status?: string; data?: { resultType?: string; result?: unknown } } | undefined)?.data;
    if (data?.resultType !== 'matrix' || !Array.isArray(data.result)) {
      throw unavailable('the answer is not a matrix');
    }
    return (data.result as Array<{ metric?: Record<string, string>; values?: Array<[number, string]> }>).map(
      (series) => ({
        metric: series.metric ?? {},
        values: (series.values ?? [])
          .map(([time, value]) => [Number(time), Number(value)] as [number, number])
          .filter(([, value]) => Number.isFinite(value)),
      }),
    );
  }
}

const unavailable = (reason: string) =>
  new AppError(502, 'METRICS_BACKEND_UNAVAILABLE', `The metrics server (Prometheus) is unavailable: ${reason}`);
