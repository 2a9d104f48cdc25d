import type { GuardedFetch } from '@streamcloud/net-guard';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/database.js';
import type { Clock } from '../../lib/clock.js';
import { PeriodicJob } from '../../lib/periodic.js';
import type { NodeReportsService } from '../nodes/node-reports.service.js';
import { PrometheusClient } from './prometheus.client.js';
import { DAYS, StatisticsService } from './statistics.service.js';
import { handleMetricsReports, handleUsageReports } from './statistics-reports.js';

export interface StatisticsOptions {
  /** Metric series come from this Prometheus server (query_range) instead of the database. */
  prometheusUrl?: string | undefined;
  /** Bearer token Prometheus scrapes `/metrics` with; the path answers 404 without one. */
  scrapeToken?: string | undefined;
  /** Days raw metric samples are kept (7 by default). */
  rawRetentionDays?: number;
  /** Days per-minute metric rollups are kept (45 by default); hourly rollups and usage never expire. */
  minuteRetentionDays?: number;
  /** How often expired samples are dropped; the job runs only when set (server.ts). */
  retentionIntervalMs?: number;
}

export const DEFAULT_RAW_RETENTION_DAYS = 7;
export const DEFAULT_MINUTE_RETENTION_DAYS = 45;

/** Usage and metrics: the report handlers, the statistics service and the retention job. */
export function createStatisticsModule(deps: {
  db: Db;
  clock: Clock;
  log: FastifyBaseLogger;
  nodeReports: NodeReportsService;
  /** The guarded fetch Prometheus is read with. */
  fetch: GuardedFetch;
  options?: StatisticsOptions | undefined;
}) {
  const options = deps.options ?? {};
  deps.nodeReports.registerReportHandler('usage', handleUsageReports);
  deps.nodeReports.registerReportHandler('metrics', handleMetricsReports);
  const service = new StatisticsService({
    db: deps.db,
    clock: deps.clock,
    prometheus: options.prometheusUrl ? new PrometheusClient(options.prometheusUrl, deps.fetch) : null,
    rawRetentionMs: DAYS(options.rawRetentionDays ?? DEFAULT_RAW_RETENTION_DAYS),
    minuteRetentionMs: DAYS(options.minuteRetentionDays ?? DEFAULT_MINUTE_RETENTION_DAYS),
  });
  const retention = new PeriodicJob(
    () => service.expire(),
    options.retentionIntervalMs ?? 0,
    (error) => deps.log.error({ err: error }, 'expiring metric samples failed'),
  );
  return { service, retention, scrapeToken: options.scrapeToken };
}

export type StatisticsModule = ReturnType<typeof createStatisticsModule>;
