import { errorStatus } from '@streamcloud/api-client';
import { transcodeRoutes } from '@streamcloud/contract';
import arrowLeftIcon from 'bootstrap-icons/icons/arrow-left.svg?raw';
import type { ReactNode } from 'react';
import { Link, useParams } from 'react-router';
import { Icon } from '@/components/ui/icon';
import { Loading } from '@/components/ui/loading';
import { PageShell } from '@/components/ui/page-shell';
import { useRouteQuery } from '@/data/route-query';
import { useStream } from '@/data/streams/get-stream';
import { transcodeKeys } from '@/data/transcode/keys';
import { TranscodeEditor } from './transcode-editor';

function Frame({ id, children }: { id: string; children: ReactNode }) {
  return (
    <PageShell
      title="Transcode editor"
      actions={
        <Link className="btn btn-outline-secondary" to={`/streams/view/${id}`}>
          <Icon svg={arrowLeftIcon} className="me-1" />
          Back
        </Link>
      }
    >
      {children}
    </PageShell>
  );
}

function LoadEditor({ id }: { id: string }) {
  // Loaded once per visit: the editor holds its changes locally until they are saved.
  const output = useRouteQuery(
    transcodeRoutes.get,
    transcodeKeys.output(id),
    { params: { id } },
    { staleTime: Number.POSITIVE_INFINITY, refetchOnWindowFocus: false },
  );
  const stream = useStream(id);
  if (output.isPending || stream.isPending) {
    return (
      <Frame id={id}>
        <Loading />
      </Frame>
    );
  }
  if (output.isError) {
    return (
      <Frame id={id}>
        <p className="text-danger">
          {errorStatus(output.error) === 404
            ? 'This stream does not exist.'
            : 'The transcode configuration could not be loaded.'}
        </p>
      </Frame>
    );
  }
  return <TranscodeEditor streamId={id} loaded={output.data} stream={stream.data} />;
}

/** /streams/transcode/{id}; a new id starts a new editor (nothing is carried over). */
export function TranscodeScreen() {
  const { id = '' } = useParams();
  return <LoadEditor key={id} id={id} />;
}
