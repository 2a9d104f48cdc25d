import arrowLeftIcon from 'bootstrap-icons/icons/arrow-left.svg?raw';
import { Link, useParams } from 'react-router';
import { Icon } from '@/components/ui/icon';
import { PageShell } from '@/components/ui/page-shell';
import { useStream } from '@/data/streams/get-stream';
import { StreamMetricsPanel } from './stream-metrics-panel';

/** /streams/metrics/{id}: the full (non-compact) stream metrics panel. */
export function StreamMetricsScreen() {
  const { id = '' } = useParams();
  // The stream's format decides which charts it can have; a deleted stream's metrics show every chart.
  const format = useStream(id, { retry: false }).data?.format;
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
      <StreamMetricsPanel key={id} streamId={id} format={format} />
    </PageShell>
  );
}
