import { useParams } from 'react-router';
import { StreamDashboard, type StreamDashboardSlots } from './stream-dashboard';

/** /streams/view/{id}; a new id starts a new dashboard (nothing is carried over). */
export function StreamDashboardRoute({ slots }: { slots: StreamDashboardSlots }) {
  const { id = '' } = useParams();
  return <StreamDashboard key={id} id={id} slots={slots} />;
}
