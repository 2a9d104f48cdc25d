import { messageOr } from '@streamcloud/api-client';
import { WEBHOOK_DELIVERY_STATUS_VARIANTS, type WebhookDelivery, webhookRoutes } from '@streamcloud/contract';
import Badge from 'react-bootstrap/Badge';
import Button from 'react-bootstrap/Button';
import Table from 'react-bootstrap/Table';
import { ColumnHeaders } from '@/components/ui/column-headers';
import { Loading } from '@/components/ui/loading';
import { useNotify } from '@/components/ui/notifications';
import { useRouteMutation } from '@/data/route-mutation';
import { useDeliveries } from '@/data/webhooks/deliveries';
import { type DeliveryFilter, webhookKeys } from '@/data/webhooks/keys';
import { formatDateTime } from '@/lib/format';

export const DELIVERY_TEXTS = {
  empty: 'No callbacks sent yet.',
  loadingFailed: 'The callbacks could not be loaded.',
  redeliverFailed: 'The callback could not be sent again.',
  redelivered: 'The callback is being sent again.',
} as const;

/** What the log says of the receiver's last answer: its status, and why it failed. */
function lastAnswer(delivery: WebhookDelivery) {
  if (delivery.attempts === 0) return <span className="text-secondary">Not sent yet</span>;
  return (
    <>
      {delivery.lastStatusCode !== null && <span>HTTP {delivery.lastStatusCode}</span>}
      {delivery.lastError && (
        <div className="small text-danger text-break" style={{ maxWidth: '24rem' }}>
          {delivery.lastError}
        </div>
      )}
    </>
  );
}

/**
 * A delivery log, newest first, polled while shown: each event, its status, attempts, the last answer and
 * the next attempt, with Redeliver. `showTarget` adds what each delivery is about and where it goes (the
 * account's log mixes resources).
 */
export function DeliveryLog({ filter, showTarget = false }: { filter: DeliveryFilter; showTarget?: boolean }) {
  const deliveries = useDeliveries(filter);
  // Sends a delivery again now; every delivery log shows it Pending at once.
  const redeliver = useRouteMutation(webhookRoutes.redeliver, {
    toRequest: (id: string) => ({ params: { id } }),
    invalidates: () => [webhookKeys.deliveries()],
  });
  const notify = useNotify();
  const rows = deliveries.data?.pages.flatMap((page) => page.items) ?? [];

  const sendAgain = (id: string) =>
    redeliver.mutate(id, {
      onSuccess: () => notify(DELIVERY_TEXTS.redelivered, 'success'),
      onError: (error) => notify(messageOr(error, DELIVERY_TEXTS.redeliverFailed)),
    });

  if (deliveries.isPending) return <Loading />;
  if (deliveries.isError && rows.length === 0)
    return <p className="text-danger mb-0">{DELIVERY_TEXTS.loadingFailed}</p>;
  if (rows.length === 0) return <p className="text-secondary mb-0">{DELIVERY_TEXTS.empty}</p>;
  return (
    <>
      <Table size="sm" responsive className="align-middle mb-2 small">
        <ColumnHeaders
          columns={[
            'Event',
            showTarget && 'Sent to',
            'Status',
            'Attempts',
            'Last answer',
            'Next attempt',
            'Occurred',
            { hidden: 'Actions' },
          ]}
        />
        <tbody>
          {rows.map((delivery) => (
            <tr key={delivery.id}>
              <td>
                <code>{delivery.type}</code>
              </td>
              {showTarget && (
                <td className="text-break">
                  <div className="text-secondary">
                    {delivery.resourceType} {delivery.resourceId ? <code>{delivery.resourceId}</code> : null}
                  </div>
                  {delivery.url}
                </td>
              )}
              <td>
                <Badge bg={WEBHOOK_DELIVERY_STATUS_VARIANTS[delivery.status]}>{delivery.status}</Badge>
              </td>
              <td>{delivery.attempts}</td>
              <td>{lastAnswer(delivery)}</td>
              <td>{delivery.nextAttemptAt ? formatDateTime(delivery.nextAttemptAt) : '—'}</td>
              <td>
                <time dateTime={delivery.occurredAt}>{formatDateTime(delivery.occurredAt)}</time>
              </td>
              <td className="text-end">
                <Button
                  size="sm"
                  variant="outline-secondary"
                  disabled={redeliver.isPending && redeliver.variables === delivery.id}
                  onClick={() => sendAgain(delivery.id)}
                >
                  Redeliver
                </Button>
              </td>
            </tr>
          ))}
        </tbody>
      </Table>
      {deliveries.hasNextPage && (
        <Button
          size="sm"
          variant="outline-secondary"
          disabled={deliveries.isFetchingNextPage}
          onClick={() => void deliveries.fetchNextPage()}
        >
          Load more
        </Button>
      )}
    </>
  );
}
