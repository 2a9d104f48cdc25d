import { type ReactNode, Suspense, useEffect } from 'react';
import { Loading } from '@/components/ui/loading';
import { useStream } from '@/data/streams/get-stream';
import { useOutputs } from '@/data/streams/outputs';
import { usePreviewCredential } from '@/data/streams/preview';
import { webrtcPlaybackProblem } from '../utils/webrtc-problem';
import { DashboardCard } from './dashboard-card';
import { PreviewPlayer } from './preview-player-lazy';

/** The Preview card of a stream in Ingestion or Fallback. */
export function PreviewCard({
  streamId,
  extra,
}: {
  streamId: string;
  /** Controls beside the player's, given the position being played (the clips' "Create clip"). */
  extra?: (position: () => Date | null) => ReactNode;
}) {
  const outputs = useOutputs(streamId);
  const credential = usePreviewCredential(streamId);
  // The dashboard's copy of the stream (polled there): the node's word when WebRTC playback cannot start.
  const webrtcProblem = useStream(streamId, { select: (stream) => webrtcPlaybackProblem(stream.statusMessages) }).data;
  // The player's code comes with the outputs and the credential, not after them (on a first load of the
  // dashboard app/prefetch-data.ts has asked for all three already).
  useEffect(() => {
    void PreviewPlayer.preload().catch(() => null);
  }, []);
  const items = outputs.data?.pages.flatMap((page) => page.items) ?? [];
  return (
    <DashboardCard title="Preview">
      {credential.isError ? (
        <p className="text-danger mb-0">The preview could not be authorised.</p>
      ) : !credential.data || outputs.isPending ? (
        <Loading />
      ) : (
        <Suspense fallback={<Loading />}>
          <PreviewPlayer
            outputs={items}
            token={credential.data.token}
            webrtcProblem={webrtcProblem ?? null}
            {...(extra ? { extra } : {})}
          />
        </Suspense>
      )}
    </DashboardCard>
  );
}
