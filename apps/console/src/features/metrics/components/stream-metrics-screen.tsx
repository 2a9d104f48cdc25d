import arrowLeftIcon from 'bootstrap-icons/icons/arrow-left.svg?raw';
import { Link, useParams } from 'react-router';
import { Icon } from '@/components/ui/icon';
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
          <Icon svg={arrowLeftIcon} className="me-1" />
          Back to stream
        </Link>
      }
    >
      <p className="text-secondary text-break">{id}</p>
      <StreamMetricsPanel key={id} streamId={id} />
    </PageShell>
  );
}
