import type { ReportMode } from '@streamcloud/contract';
import { useState } from 'react';
import { useParams } from 'react-router';
import { StreamPageShell } from '@/components/ui/stream-page-shell';
import { useBillingAccount } from '@/data/billing/account';
import { type StreamUsageParams, useStreamUsage } from '@/data/billing/stream-usage';
import { useStream } from '@/data/streams/get-stream';
import { downloadText } from '@/lib/download';
import { currentMonth, endOfDayUtc, isDateInput, startOfDayUtc } from '@/lib/format';
import { STREAM_CSV_FILE_NAME, streamCsv } from '../utils/csv';
import { INVALID_RANGE } from './account-billing-screen';
import './billing.css';
import { type DateRange, DateRangeFields } from '@/components/ui/date-range-fields';
import { PrintStatement } from './print-statement';
import { ReportActions } from './report-actions';
import { ReportModeSelector } from './report-mode-selector';
import { UsageReportResult } from './usage-report-result';

const paramsOf = (range: DateRange): StreamUsageParams => ({
  from: startOfDayUtc(range.from).toISOString(),
  to: endOfDayUtc(range.to).toISOString(),
});

/** /billing/stream/{id}: one stream's report (also a deleted stream's); loads on opening, Search reloads. */
export function StreamBillingScreen() {
  const { id = '' } = useParams();
  const [range, setRange] = useState<DateRange>(() => currentMonth());
  const [searched, setSearched] = useState<DateRange>(range);
  const [mode, setMode] = useState<ReportMode>('Total');
  const [rangeError, setRangeError] = useState<string | null>(null);
  const usage = useStreamUsage(id, paramsOf(searched));
  // The stream while it exists (a deleted stream's usage is still billed): a 404 is not tried again.
  const stream = useStream(id, { retry: false });
  const accountId = usage.data?.streams[0]?.accountId ?? stream.data?.ownerId ?? null;
  const account = useBillingAccount(accountId, accountId !== null);
  const caption = stream.data?.caption ?? usage.data?.streams[0]?.caption ?? null;

  const onSearch = () => {
    if (!isDateInput(range.from) || !isDateInput(range.to) || range.from > range.to) {
      setRangeError(INVALID_RANGE);
      return;
    }
    setRangeError(null);
    if (range.from === searched.from && range.to === searched.to) void usage.refetch();
    else setSearched(range);
  };

  const report = usage.data ?? null;

  return (
    <>
      <div className="billing-screen">
        <StreamPageShell title="Stream billing" streamId={id} caption={caption}>
          <div className="d-flex flex-wrap align-items-center gap-2 mb-3">
            <DateRangeFields value={range} onChange={setRange} />
            <ReportActions
              onSearch={onSearch}
              onExport={report ? () => downloadText(STREAM_CSV_FILE_NAME, streamCsv(report.streams)) : null}
            />
          </div>
          <div className="mb-3">
            <ReportModeSelector value={mode} onChange={setMode} />
          </div>
          {rangeError ? <p className="text-danger">{rangeError}</p> : null}
          <UsageReportResult usage={usage} report={report} mode={mode} />
        </StreamPageShell>
      </div>
      {report ? (
        <PrintStatement
          from={searched.from}
          to={searched.to}
          accountName={account.data?.username ?? ''}
          accountId={accountId ?? ''}
          streams={report.streams}
          mode={mode}
          subject={caption ? `${caption} (${id})` : id}
        />
      ) : null}
    </>
  );
}
