import type { ReportMode, StreamUsage } from '@streamcloud/contract';
import { formatDate, startOfDayUtc } from '@/lib/format';
import logo from '../assets/logo.svg';
import { UsageReport } from './usage-report';

/**
 * The print-only layout (billing.css hides it on screen and shows only it on paper): the logo, 'Billing
 * Statement' with the period as DD/MM/YYYY, the date printed, the account's username and id, the totals,
 * and the details unless the mode is Totals.
 */
export function PrintStatement({
  from,
  to,
  accountName,
  accountId,
  streams,
  mode,
  concurrentSessions,
  subject,
}: {
  /** yyyy-mm-dd as picked. */
  from: string;
  to: string;
  accountName: string;
  accountId: string;
  streams: readonly StreamUsage[];
  mode: ReportMode;
  concurrentSessions?: number;
  /** What the statement is about beyond the account (a stream). */
  subject?: string;
}) {
  return (
    <section className="billing-print" aria-label="Billing statement">
      <img src={logo} alt="Streamcloud" className="billing-print-logo" />
      <h1 className="h3 mt-3">Billing Statement</h1>
      <p className="billing-print-period">
        {formatDate(startOfDayUtc(from))} - {formatDate(startOfDayUtc(to))}
      </p>
      <dl className="row">
        <dt className="col-4">Date Printed</dt>
        <dd className="col-8">{formatDate(new Date())}</dd>
        <dt className="col-4">Name</dt>
        <dd className="col-8">{accountName}</dd>
        <dt className="col-4">Account Number</dt>
        <dd className="col-8">{accountId}</dd>
        {subject ? (
          <>
            <dt className="col-4">Stream</dt>
            <dd className="col-8">{subject}</dd>
          </>
        ) : null}
      </dl>
      <UsageReport
        streams={streams}
        mode={mode}
        {...(concurrentSessions === undefined ? {} : { concurrentSessions })}
      />
    </section>
  );
}
