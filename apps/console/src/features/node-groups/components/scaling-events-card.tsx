import { nodeGroupRoutes } from '@streamcloud/contract';
import Badge from 'react-bootstrap/Badge';
import Card from 'react-bootstrap/Card';
import Table from 'react-bootstrap/Table';
import { ColumnHeaders } from '@/components/ui/column-headers';
import { HeaderCard } from '@/components/ui/header-card';
import { ListQuery } from '@/components/ui/list-query';
import { nodeGroupKeys } from '@/data/node-groups/keys';
import { useRouteQuery } from '@/data/route-query';
import { formatEventTime } from '../utils/format';

const SCALING_EVENTS_SHOWN = 20;
const SCALING_EVENTS_REFRESH_MS = 30_000;

/** The autoscaler's recent decisions, provider calls and callback deliveries for the group. */
export function ScalingEventsCard({ groupId }: { groupId: string }) {
  const events = useRouteQuery(
    nodeGroupRoutes.scalingEvents,
    nodeGroupKeys.events(groupId),
    { params: { id: groupId }, query: { limit: SCALING_EVENTS_SHOWN } },
    { refetchInterval: SCALING_EVENTS_REFRESH_MS },
  );
  return (
    <HeaderCard titleId="events-card-title" title="Recent scaling events">
      <Card.Body>
        <ListQuery
          query={events}
          failed="The scaling events could not be loaded."
          className="mb-0"
          empty={<p className="text-secondary mb-0">No scaling events yet.</p>}
        >
          {(items) => (
            <Table responsive size="sm" className="mb-0 align-middle" aria-labelledby="events-card-title">
              <ColumnHeaders columns={['Time', 'Event', 'Result', 'Details']} />
              <tbody>
                {items.map((event) => (
                  <tr key={event.id}>
                    <td className="text-nowrap">{formatEventTime(event)}</td>
                    <td className="text-nowrap">
                      {event.type} · {event.action}
                      {event.provider ? ` · ${event.provider}` : ''}
                    </td>
                    <td>
                      <Badge bg={event.success ? 'success' : 'danger'}>{event.success ? 'OK' : 'Failed'}</Badge>
                    </td>
                    <td className="text-break">{event.message}</td>
                  </tr>
                ))}
              </tbody>
            </Table>
          )}
        </ListQuery>
      </Card.Body>
    </HeaderCard>
  );
}
