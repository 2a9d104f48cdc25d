import { Suspense } from 'react';
import { Loading } from '@/components/ui/loading';
import { lazyComponent } from '@/components/ui/on-demand';
import { usePreviewCredential } from '../api/create-preview';
import { useOutputs } from '../api/get-outputs';
import { DashboardCard } from './dashboard-card';

/** The player (WHEP, hls.js, stats) is fetched when a stream is live on the dashboard, never in the first load. */
const PreviewPlayer = lazyComponent(() => import('./preview-player'), 'PreviewPlayer');

/** The Preview card of a stream in Ingestion or Fallback. */
export function PreviewCard({ streamId }: { streamId: string }) {
  const outputs = useOutputs(streamId);
  const credential = usePreviewCredential(streamId);
  const items = outputs.data?.pages.flatMap((page) => page.items) ?? [];
  return (
    <DashboardCard title="Preview">
      {credential.isError ? (
        <p className="text-danger mb-0">The preview could not be authorised.</p>
      ) : !credential.data || outputs.isPending ? (
        <Loading />
      ) : (
        <Suspense fallback={<Loading />}>
          <PreviewPlayer outputs={items} token={credential.data.token} />
        </Suspense>
      )}
    </DashboardCard>
  );
}
