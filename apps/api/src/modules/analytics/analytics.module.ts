import { registerPeriodicJob } from '../../lib/periodic.js';
import { deriveKey } from '../../lib/secrets.js';
import { GeoLocator } from '../info/geo-locator.js';
import { defineModule } from '../module.js';
import { AnalyticsRepository, VIEWER_TABLES } from './analytics.repository.js';
import { registerAnalyticsRoutes } from './analytics.routes.js';
import { AnalyticsService } from './analytics.service.js';
import './quality-events.js';
import { QualityRulesRepository } from './quality-rules.repository.js';
import { QualityRulesService } from './quality-rules.service.js';
import { RateWindow } from './rate-window.js';
import { ViewerRollupsRepository } from './viewer-rollups.repository.js';
import { ViewerSessionCredentials } from './viewer-session-credential.js';

export interface AnalyticsOptions {
  /** Days viewer events, sessions and minute rollups are kept (VIEWER_ANALYTICS_RETENTION_DAYS, 30 by default). */
  retentionDays?: number;
  /** How often what is past the retention is dropped; the job runs only when set (server.ts). */
  retentionIntervalMs?: number;
  /** How often the hours that can no longer change are rolled up for account-wide windows; only when set (server.ts). */
  rollupIntervalMs?: number;
  /** How often the streams' quality rules are judged (quality.degraded / quality.recovered); only when set (server.ts). */
  qualityCheckIntervalMs?: number;
  /** Beacon batches per viewer session and minute (30 by default: one each 2 s). */
  perSessionPerMinute?: number;
  /** Beacon batches per output and minute, all its viewers together (6,000 by default). */
  perOutputPerMinute?: number;
}

declare module '../module.js' {
  interface AppOptions {
    /** The viewer beacon and analytics (modules/analytics). */
    analytics?: AnalyticsOptions;
  }
  interface AppServices {
    /** The viewer beacon, its viewer session credentials, and the quality-of-experience analytics. */
    analytics: AnalyticsService;
    /** The streams' quality rules and their periodic check (quality alerts). */
    qualityRules: QualityRulesService;
  }
}

declare module '../../db/unit-of-work.js' {
  interface UnitOfWorkParts {
    analytics: AnalyticsRepository;
    qualityRules: QualityRulesRepository;
    viewerRollups: ViewerRollupsRepository;
  }
}

declare module '../access/access.js' {
  interface AccessResources {
    viewerSession: true;
  }
}

export const DEFAULT_VIEWER_ANALYTICS_RETENTION_DAYS = 30;
/** Rules one quality check judges at most: a run's work stays bounded however many streams set one. */
const QUALITY_RULES_PER_CHECK = 200;

/**
 * Viewer beacons from the embeddable player and the preview, the analytics read from them, and the streams'
 * quality rules whose changes reach the webhooks module as `quality.changed` (issue 37).
 */
export const analyticsModule = defineModule({
  name: 'analytics',
  dependencies: ['streams', 'statistics'],
  tables: [
    'viewer_sessions',
    'viewer_events',
    'viewer_minutes',
    'quality_rules',
    'viewer_hours',
    'viewer_hour_buckets',
    'viewer_hour_groups',
    'viewer_rollup_state',
  ],
  repositories: {
    analytics: AnalyticsRepository,
    qualityRules: QualityRulesRepository,
    viewerRollups: ViewerRollupsRepository,
  },
  access: { viewerSession: { entity: 'Viewer session', table: 'viewer_sessions', owner: 'account_id' } },
  tags: { analytics: "Viewers' quality of experience: the player's beacon and the analytics read from it." },
  async register(app, { uow, clock, options: appOptions, responseCache }) {
    const options = appOptions.analytics ?? {};
    const geo = await GeoLocator.open();
    const analytics = new AnalyticsService({
      uow,
      clock,
      credentials: new ViewerSessionCredentials(deriveKey(appOptions.secret, 'viewer-sessions')),
      countryOf: (address) => geo.countryCode(address),
      limits: {
        // Bounded maps: a window's keys are dropped with it, and at most maxKeys are held within one.
        perSession: new RateWindow({ perKey: options.perSessionPerMinute ?? 30, windowMs: 60_000, maxKeys: 200_000 }),
        perOutput: new RateWindow({ perKey: options.perOutputPerMinute ?? 6000, windowMs: 60_000, maxKeys: 50_000 }),
      },
      retentionMs: (options.retentionDays ?? DEFAULT_VIEWER_ANALYTICS_RETENTION_DAYS) * 24 * 3600_000,
    });
    // A beacon writes only viewer tables, in one statement: the API's cached answers stay (db/response-cache.ts);
    // so does the quality check's note of each rule it judged (no cached answer reads the rules either).
    responseCache.ignoreWritesTo([...VIEWER_TABLES, 'quality_rules']);
    app.services.analytics = analytics;
    app.services.statistics.addExpositionSource(() => analytics.exposition());
    registerPeriodicJob(app, {
      what: 'expiring viewer analytics',
      intervalMs: options.retentionIntervalMs,
      run: () => analytics.expire(),
    });
    registerPeriodicJob(app, {
      what: 'rolling up viewer analytics by hour',
      intervalMs: options.rollupIntervalMs,
      run: () => analytics.rollUp(),
    });
    const qualityRules = new QualityRulesService({ uow, clock, rulesPerCheck: QUALITY_RULES_PER_CHECK });
    app.services.qualityRules = qualityRules;
    registerPeriodicJob(app, {
      what: "checking the streams' quality rules",
      intervalMs: options.qualityCheckIntervalMs,
      run: () => qualityRules.check(),
    });
    registerAnalyticsRoutes(app, analytics, qualityRules);
  },
});
