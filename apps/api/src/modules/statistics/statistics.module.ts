import type { Db } from '../../db/database.js';
import { registerPeriodicJob } from '../../lib/periodic.js';
import type { AccessFacts } from '../access/access.js';
import { defineModule } from '../module.js';
import { MetricsRepository } from './metrics.repository.js';
import { PrometheusClient } from './prometheus.client.js';
import { ServedTraffic } from './served-traffic.js';
import { registerStatisticsRoutes } from './statistics.routes.js';
import { DAYS, StatisticsService } from './statistics.service.js';
import { handleMetricsReports, handleUsageReports } from './statistics-reports.js';
import { UsageRepository } from './usage.repository.js';

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

declare module '../module.js' {
  interface AppOptions {
    /** Usage and metrics: Prometheus, the scrape token, retention (modules/statistics). */
    statistics?: StatisticsOptions;
  }
  interface AppServices {
    /** Usage, billing and metric series; `statistics.expire()` drops expired samples. */
    statistics: StatisticsService;
    /** Bytes the control plane serves of a stream's recordings and clips, billed as its outgoing traffic. */
    servedTraffic: ServedTraffic;
  }
}

declare module '../../db/unit-of-work.js' {
  interface UnitOfWorkParts {
    usage: UsageRepository;
    metrics: MetricsRepository;
  }
}

declare module '../access/access.js' {
  interface AccessResources {
    /** A stream as usage bills it, also once deleted. */
    billedStream: true;
  }
}

/** Usage is billed to the account the stream had when it first reported, kept after it is deleted. */
async function billedStreamFacts(db: Db, id: string): Promise<AccessFacts | null> {
  const row = await db
    .selectNoFrom((eb) => [
      eb.fn
        .coalesce(
          eb.selectFrom('usage_streams').select('account_id').where('stream_id', '=', id),
          eb.selectFrom('inputs').select('owner_id').where('id', '=', id),
        )
        .as('ownerId'),
      eb.selectFrom('inputs').select('node_id').where('id', '=', id).as('nodeId'),
    ])
    .executeTakeFirst();
  return row?.ownerId ? { ownerId: row.ownerId, streamId: id, nodeId: row.nodeId ?? null } : null;
}

export const DEFAULT_RAW_RETENTION_DAYS = 7;
export const DEFAULT_MINUTE_RETENTION_DAYS = 45;

/** Usage and metrics: the `usage` and `metrics` report kinds, the statistics routes and the retention job. */
export const statisticsModule = defineModule({
  name: 'statistics',
  dependencies: ['nodes'],
  tables: [
    'usage_streams',
    'usage_nodes',
    'usage_records',
    'usage_hourly',
    'usage_stream_daily',
    'usage_daily',
    'metric_samples',
    'metric_minutes',
    'metric_hours',
    'metric_account_minutes',
    'metric_account_hours',
  ],
  repositories: { usage: UsageRepository, metrics: MetricsRepository },
  access: { billedStream: { entity: 'Stream', facts: billedStreamFacts } },
  tags: { statistics: 'Usage, billing and metric series.' },
  register(app, { uow, clock, options: appOptions, outbound }) {
    const options = appOptions.statistics ?? {};
    const statistics = new StatisticsService({
      uow,
      clock,
      prometheus: options.prometheusUrl ? new PrometheusClient(options.prometheusUrl, outbound.operator.fetch) : null,
      rawRetentionMs: DAYS(options.rawRetentionDays ?? DEFAULT_RAW_RETENTION_DAYS),
      minuteRetentionMs: DAYS(options.minuteRetentionDays ?? DEFAULT_MINUTE_RETENTION_DAYS),
    });
    app.services.statistics = statistics;
    app.services.servedTraffic = new ServedTraffic({ uow, clock, log: app.log });
    app.addHook('onClose', () => app.services.servedTraffic.flush());
    app.services.nodeReports.registerReportHandler('usage', handleUsageReports);
    app.services.nodeReports.registerReportHandler('metrics', handleMetricsReports);
    registerPeriodicJob(app, {
      what: 'expiring metric samples',
      intervalMs: options.retentionIntervalMs,
      run: () => statistics.expire(),
    });
    registerStatisticsRoutes(app, statistics, options.scrapeToken);
  },
});
