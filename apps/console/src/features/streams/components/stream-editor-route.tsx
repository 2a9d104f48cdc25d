import { Navigate, useNavigate, useParams } from 'react-router';
import { StreamDashboard, type StreamDashboardSlots } from './stream-dashboard';
import { streamViewPath } from './stream-item';
import { StreamsScreen } from './streams-screen';

/**
 * /streams/{mode} and /streams/{mode}/{id}: the stream editor is the stream modal, so /streams/create
 * opens it over the list and /streams/update/{id} over the stream's dashboard. Other modes go to
 * /streams, like every unknown path.
 */
export function StreamEditorRoute({ slots }: { slots: StreamDashboardSlots }) {
  const { mode, id } = useParams();
  const navigate = useNavigate();
  if (mode === 'create' && !id) {
    return <StreamsScreen startCreating onCreateClosed={() => navigate('/streams', { replace: true })} />;
  }
  if ((mode === 'update' || mode === 'edit') && id) {
    return (
      <StreamDashboard
        key={id}
        id={id}
        slots={slots}
        startUpdating
        onUpdateClosed={() => navigate(streamViewPath(id), { replace: true })}
      />
    );
  }
  return <Navigate to="/streams" replace />;
}
