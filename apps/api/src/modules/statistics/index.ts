/** The statistics module's port: what other modules may import of it. */

export type { ExpositionSource } from './prometheus-text.js';
export { labels as prometheusLabels } from './prometheus-text.js';
export type { ServedTraffic } from './served-traffic.js';
export type { StatisticsService } from './statistics.service.js';
