import { useParams } from 'react-router';
import { StreamPageShell } from '@/components/ui/stream-page-shell';
import { useStream } from '@/data/streams/get-stream';
import { StreamMetricsPanel } from './stream-metrics-panel';

/** /streams/metrics/{id}: the full (non-compact) stream metrics panel. */
export function StreamMetricsScreen() {
  const { id = '' } = useParams();
  // The stream's format decides which charts it can have; a deleted stream's metrics show every chart.
  const format = useStream(id, { retry: false }).data?.format;
  return (
    <StreamPageShell title="Stream metrics" streamId={id}>
      <StreamMetricsPanel key={id} streamId={id} format={format} />
    </StreamPageShell>
  );
}
