import { messageOr } from '@streamcloud/api-client';
import { AUDIT_RESOURCE_TYPES, type AuditEntry, type AuditFilter } from '@streamcloud/contract';
import { type FormEvent, useState } from 'react';
import Badge from 'react-bootstrap/Badge';
import Button from 'react-bootstrap/Button';
import Col from 'react-bootstrap/Col';
import Container from 'react-bootstrap/Container';
import Form from 'react-bootstrap/Form';
import Row from 'react-bootstrap/Row';
import Table from 'react-bootstrap/Table';
import { ColumnHeaders } from '@/components/ui/column-headers';
import { Loading } from '@/components/ui/loading';
import { useNotify } from '@/components/ui/notifications';
import { useAccounts } from '@/data/accounts/get-accounts';
import { useExportAudit } from '@/data/audit/export';
import { useAuditLog } from '@/data/audit/log';
import { formatDateTime } from '@/lib/format';

export const AUDIT_TEXTS = {
  adminTitle: 'Audit',
  ownTitle: 'Account activity',
  ownIntro: 'What was done as your account: its changes, its sign-ins and failed sign-ins, newest first.',
  empty: 'No entries match.',
  loadingFailed: 'The audit log could not be loaded.',
  exportFailed: 'The audit log could not be exported.',
  anyAccount: 'Any account',
  anyType: 'Any resource type',
  /** An admin's act as the account, shown to the account: the admin's own network address is not. */
  adminAddressHidden: 'Not shown (an administrator)',
  system: 'System',
} as const;

interface FilterForm {
  account: string;
  resourceType: string;
  action: string;
  from: string;
  to: string;
}

const EMPTY_FORM: FilterForm = { account: '', resourceType: '', action: '', from: '', to: '' };

/** A `datetime-local` value (the browser's time zone) as the API's ISO time, or nothing when blank. */
const isoOf = (local: string) => (local ? new Date(local).toISOString() : undefined);

/** The API filter a submitted form stands for: blank fields are left out. */
export function filterOf(form: FilterForm): AuditFilter {
  const filter: AuditFilter = {};
  if (form.account) filter.account = form.account;
  if (form.resourceType) filter.resourceType = form.resourceType;
  if (form.action.trim()) filter.action = form.action.trim();
  const from = isoOf(form.from);
  const to = isoOf(form.to);
  if (from) filter.from = from;
  if (to) filter.to = to;
  return filter;
}

function actingAdmin(entry: AuditEntry) {
  return entry.actingAdmin ? (entry.actingAdmin.username ?? entry.actingAdmin.id) : '—';
}

function sourceAddress(entry: AuditEntry) {
  return entry.sourceAddress ?? (entry.impersonated ? AUDIT_TEXTS.adminAddressHidden : '—');
}

/**
 * The audit log: every write and sign-in, newest first, filtered, a page at a time, with a CSV export of
 * what the filters select. `scope` all (ADMIN, the Audit page) offers the account filter; own (any account,
 * its account activity) shows the caller's own entries only.
 */
export function AuditScreen({ scope }: { scope: 'all' | 'own' }) {
  const [form, setForm] = useState<FilterForm>(EMPTY_FORM);
  const [filter, setFilter] = useState<AuditFilter>({});
  const [invalid, setInvalid] = useState<string | null>(null);
  const log = useAuditLog(filter);
  const accounts = useAccounts({ enabled: scope === 'all' });
  const exporter = useExportAudit();
  const notify = useNotify();
  const rows = log.data?.pages.flatMap((page) => page.items) ?? [];
  const set = (field: keyof FilterForm) => (event: { target: { value: string } }) =>
    setForm((current) => ({ ...current, [field]: event.target.value }));

  const apply = (event: FormEvent) => {
    event.preventDefault();
    const next = filterOf(form);
    if (next.from && next.to && next.from >= next.to) {
      setInvalid('From must be before To');
      return;
    }
    setInvalid(null);
    setFilter(next);
  };

  const exportCsv = () =>
    exporter.mutate(filter, { onError: (error) => notify(messageOr(error, AUDIT_TEXTS.exportFailed)) });

  const failure = log.isError ? messageOr(log.error, AUDIT_TEXTS.loadingFailed) : null;

  return (
    <Container fluid className="py-3">
      <div className="d-flex align-items-center justify-content-between mb-3">
        <h1 className="h3 mb-0">{scope === 'all' ? AUDIT_TEXTS.adminTitle : AUDIT_TEXTS.ownTitle}</h1>
        <Button variant="outline-primary" onClick={exportCsv} disabled={exporter.isPending}>
          Export CSV
        </Button>
      </div>
      {scope === 'own' && <p className="text-secondary">{AUDIT_TEXTS.ownIntro}</p>}
      <Form onSubmit={apply} className="mb-3" aria-label="Audit filters" noValidate>
        <Row className="g-2 align-items-end">
          {scope === 'all' && (
            <Form.Group as={Col} md={2} controlId="audit-account">
              <Form.Label>Account</Form.Label>
              <Form.Select value={form.account} onChange={set('account')}>
                <option value="">{AUDIT_TEXTS.anyAccount}</option>
                {(accounts.data ?? []).map((account) => (
                  <option key={account.id} value={account.id}>
                    {account.username}
                  </option>
                ))}
              </Form.Select>
            </Form.Group>
          )}
          <Form.Group as={Col} md={2} controlId="audit-resource-type">
            <Form.Label>Resource type</Form.Label>
            <Form.Select value={form.resourceType} onChange={set('resourceType')}>
              <option value="">{AUDIT_TEXTS.anyType}</option>
              {AUDIT_RESOURCE_TYPES.map((type) => (
                <option key={type} value={type}>
                  {type}
                </option>
              ))}
            </Form.Select>
          </Form.Group>
          <Form.Group as={Col} md={2} controlId="audit-action">
            <Form.Label>Action</Form.Label>
            <Form.Control value={form.action} onChange={set('action')} placeholder="e.g. input.create" />
          </Form.Group>
          <Form.Group as={Col} md={2} controlId="audit-from">
            <Form.Label>From</Form.Label>
            <Form.Control type="datetime-local" value={form.from} onChange={set('from')} />
          </Form.Group>
          <Form.Group as={Col} md={2} controlId="audit-to">
            <Form.Label>To</Form.Label>
            <Form.Control type="datetime-local" value={form.to} onChange={set('to')} isInvalid={invalid !== null} />
            <Form.Control.Feedback type="invalid">{invalid}</Form.Control.Feedback>
          </Form.Group>
          <Col md="auto" className="d-flex gap-2">
            <Button type="submit">Filter</Button>
            <Button
              variant="outline-secondary"
              onClick={() => {
                setForm(EMPTY_FORM);
                setFilter({});
                setInvalid(null);
              }}
            >
              Clear
            </Button>
          </Col>
        </Row>
      </Form>
      {log.isPending ? (
        <Loading />
      ) : failure && rows.length === 0 ? (
        <p className="text-danger" role="alert">
          {failure}
        </p>
      ) : rows.length === 0 ? (
        <p className="text-secondary">{AUDIT_TEXTS.empty}</p>
      ) : (
        <>
          <Table size="sm" responsive striped className="align-middle small" aria-label="Audit entries">
            <ColumnHeaders
              columns={['Time', 'Actor', 'Acting admin', 'Action', 'Resource', 'Source address', 'Result']}
            />
            <tbody>
              {rows.map((entry) => (
                <tr key={entry.id}>
                  <td>
                    <time dateTime={entry.at}>{formatDateTime(entry.at)}</time>
                  </td>
                  <td>{entry.actor ? (entry.actor.username ?? entry.actor.id) : AUDIT_TEXTS.system}</td>
                  <td>{actingAdmin(entry)}</td>
                  <td>
                    <code>{entry.action}</code>
                  </td>
                  <td className="text-break">
                    {entry.resourceType ?? '—'} {entry.resourceId && <code>{entry.resourceId}</code>}
                  </td>
                  <td>{sourceAddress(entry)}</td>
                  <td>
                    <Badge bg={entry.result === 'success' ? 'success' : 'danger'}>{entry.result}</Badge>
                  </td>
                </tr>
              ))}
            </tbody>
          </Table>
          {log.hasNextPage && (
            <Button
              size="sm"
              variant="outline-secondary"
              disabled={log.isFetchingNextPage}
              onClick={() => void log.fetchNextPage()}
            >
              Load more
            </Button>
          )}
        </>
      )}
    </Container>
  );
}
