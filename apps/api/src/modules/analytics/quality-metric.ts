import type { QualityMetric } from '@streamcloud/contract';
import type { MinuteFigures, SessionFigures } from './analytics.repository.js';
import { errorShare, rebufferShare } from './window-figures.js';

/**
 * A rule's metric over its window, in the rule's unit (percent or milliseconds), from the same figures the
 * analytics answer (viewers only); null when the window has no sample of it.
 */
export function qualityValue(metric: QualityMetric, sessions: SessionFigures, minutes: MinuteFigures): number | null {
  switch (metric) {
    case 'rebufferPercent':
      return rebufferShare(minutes, 100);
    case 'errorPercent':
      return errorShare(sessions, 100);
    case 'ttffP95Ms':
      return sessions.ttffP95;
    case 'startupP95Ms':
      return sessions.startupP95;
    case 'latencyP95Ms':
      return sessions.latencyP95;
  }
}
