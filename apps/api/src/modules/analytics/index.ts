/** The analytics module's port: what other modules may import of it. */

export type { AnalyticsService } from './analytics.service.js';
export type { QualityEventsMap, QualitySubject } from './quality-events.js';
export type { QualityRulesService } from './quality-rules.service.js';
