import { messageOr } from '@streamcloud/api-client';
import type { ReportMode } from '@streamcloud/contract';
import { useState } from 'react';
import { useParams } from 'react-router';
import { PageShell } from '@/components/ui/page-shell';
import { useBillingAccount } from '@/data/billing/account';
import { type AccountUsageParams, useAccountUsage } from '@/data/billing/account-usage';
import { downloadText } from '@/lib/download';
import { currentMonth, endOfDayUtc, isDateInput, startOfDayUtc } from '@/lib/format';
import { accountCsv, accountCsvFileName } from '../utils/csv';
import {
  PROCESSING_CHOICES,
  PROTOCOL_CHOICES,
  type ProcessingChoice,
  type ProtocolChoice,
  processingOf,
  protocolOf,
} from '../utils/report-model';
import './billing.css';
import { type DateRange, DateRangeFields } from '@/components/ui/date-range-fields';
import { ChoiceDropdown } from './choice-dropdown';
import { PrintStatement } from './print-statement';
import { ReportActions } from './report-actions';
import { ReportModeSelector } from './report-mode-selector';
import { UsageReportResult } from './usage-report-result';

export const INVALID_RANGE = 'Pick a From date on or before the To date (yyyy-mm-dd).';

/** What a search asked for: the request and the dates as picked (for the statement and the file name). */
interface Search {
  params: AccountUsageParams;
  range: DateRange;
}

/** /billing/account and /billing/account/{id}: the account report; Search loads it, nothing loads before. */
export function AccountBillingScreen() {
  const { id } = useParams();
  const account = useBillingAccount(id ?? null);
  const [range, setRange] = useState<DateRange>(() => currentMonth());
  const [protocol, setProtocol] = useState<ProtocolChoice>('All');
  const [processing, setProcessing] = useState<ProcessingChoice>('All');
  const [mode, setMode] = useState<ReportMode>('Total');
  const [search, setSearch] = useState<Search | null>(null);
  const [rangeError, setRangeError] = useState<string | null>(null);
  const usage = useAccountUsage(search?.params ?? null);
  // Without an id the report is the signed-in account's own, so its id must be known first.
  const accountId = id ?? account.data?.id;

  const onSearch = () => {
    if (!isDateInput(range.from) || !isDateInput(range.to) || range.from > range.to) {
      setRangeError(INVALID_RANGE);
      return;
    }
    setRangeError(null);
    const params: AccountUsageParams = {
      from: startOfDayUtc(range.from).toISOString(),
      to: endOfDayUtc(range.to).toISOString(),
      account: accountId ?? null,
      protocol: protocolOf(protocol),
      processing: processingOf(processing),
    };
    if (search && JSON.stringify(search.params) === JSON.stringify(params)) void usage.refetch();
    else setSearch({ params, range });
  };

  const report = search && usage.data && !usage.isPlaceholderData ? usage.data : null;
  const username = account.data?.username ?? '';

  return (
    <>
      <div className="billing-screen">
        <PageShell title="Account billing">
          {username ? <p className="text-secondary">{username}</p> : null}
          <div className="d-flex flex-wrap align-items-center gap-2 mb-3">
            <DateRangeFields value={range} onChange={setRange} />
            <ChoiceDropdown
              id="billing-protocol"
              caption="Protocol"
              choices={PROTOCOL_CHOICES}
              value={protocol}
              onChange={setProtocol}
            />
            <ChoiceDropdown
              id="billing-processing"
              caption="Processing"
              choices={PROCESSING_CHOICES}
              value={processing}
              onChange={setProcessing}
            />
            <ReportActions
              onSearch={onSearch}
              searchDisabled={!accountId}
              onExport={
                report && search
                  ? () =>
                      downloadText(
                        accountCsvFileName(username, search.range.from, search.range.to),
                        accountCsv(report.streams),
                      )
                  : null
              }
            />
          </div>
          <div className="mb-3">
            <ReportModeSelector value={mode} onChange={setMode} />
          </div>
          {rangeError ? <p className="text-danger">{rangeError}</p> : null}
          {account.isError ? (
            <p className="text-danger">{messageOr(account.error, 'The account could not be loaded.')}</p>
          ) : null}
          <UsageReportResult
            usage={usage}
            report={report}
            mode={mode}
            empty={<p className="text-secondary">Pick a period and press Search.</p>}
          />
        </PageShell>
      </div>
      {report && search ? (
        <PrintStatement
          from={search.range.from}
          to={search.range.to}
          accountName={username}
          accountId={accountId ?? ''}
          streams={report.streams}
          mode={mode}
          concurrentSessions={report.concurrentSessions}
        />
      ) : null}
    </>
  );
}
