import { messageOr } from '@streamcloud/api-client';
import type { ReportMode, StreamUsage } from '@streamcloud/contract';
import type { ReactNode } from 'react';
import { Loading } from '@/components/ui/loading';
import { UsageReport } from './usage-report';

export interface UsageReportResultProps {
  /** The report query: loading, failed, or answered. */
  usage: { isFetching: boolean; isError: boolean; error: unknown };
  /** The report to show, null while there is none to show. */
  report: { streams: readonly StreamUsage[]; concurrentSessions?: number } | null;
  mode: ReportMode;
  /** What stands in the report's place before any search. */
  empty?: ReactNode;
}

/** Where a billing screen's report goes: loading, the error, the report, or what to do first. */
export function UsageReportResult({ usage, report, mode, empty = null }: UsageReportResultProps) {
  if (usage.isFetching) return <Loading />;
  if (usage.isError) return <p className="text-danger">{messageOr(usage.error, 'The report could not be loaded.')}</p>;
  if (!report) return empty;
  return (
    <section aria-label="Usage report">
      <UsageReport
        streams={report.streams}
        mode={mode}
        {...(report.concurrentSessions === undefined ? {} : { concurrentSessions: report.concurrentSessions })}
      />
    </section>
  );
}
