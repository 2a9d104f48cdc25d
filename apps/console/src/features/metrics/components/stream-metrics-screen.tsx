import { Link, useParams } from 'react-router';
import { PageShell } from '@/components/ui/page-shell';
import { StreamMetricsPanel } from './stream-metrics-panel';

/** /streams/metrics/{id}: the full (non-compact) stream metrics panel. */
export function StreamMetricsScreen() {
  const { id = '' } = useParams();
  return (
    <PageShell
      title="Stream metrics"
      actions={
        <Link className="btn btn-outline-secondary" to={`/streams/view/${id}`}>
          <i className="bi bi-arrow-left me-1" aria-hidden="true" />
          Back to stream
        </Link>
      }
    >
      <p className="text-secondary text-break">{id}</p>
      <StreamMetricsPanel key={id} streamId={id} />
    </PageShell>
  );
}
