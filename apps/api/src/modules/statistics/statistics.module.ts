import { registerPeriodicJob } from '../../lib/periodic.js';
import { defineModule } from '../module.js';
import { PrometheusClient } from './prometheus.client.js';
import { registerStatisticsRoutes } from './statistics.routes.js';
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

/** Usage and metrics: the `usage` and `metrics` report kinds, the statistics routes and the retention job. */
export const statisticsModule = defineModule(
  'statistics',
  (app, { uow, clock, options: appOptions, outbound }) => {
    const options = appOptions.statistics ?? {};
    const statistics = new StatisticsService({
      uow,
      clock,
      prometheus: options.prometheusUrl ? new PrometheusClient(options.prometheusUrl, outbound.operator.fetch) : null,
      rawRetentionMs: DAYS(options.rawRetentionDays ?? DEFAULT_RAW_RETENTION_DAYS),
      minuteRetentionMs: DAYS(options.minuteRetentionDays ?? DEFAULT_MINUTE_RETENTION_DAYS),
    });
    app.services.statistics = statistics;
    app.services.nodeReports.registerReportHandler('usage', handleUsageReports);
    app.services.nodeReports.registerReportHandler('metrics', handleMetricsReports);
    registerPeriodicJob(app, {
      what: 'expiring metric samples',
      intervalMs: options.retentionIntervalMs,
      run: () => statistics.expire(),
    });
    registerStatisticsRoutes(app, statistics, options.scrapeToken);
  },
  ['nodes'],
);
