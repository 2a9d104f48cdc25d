import { messageOr } from '@streamcloud/api-client';
import {
  type AccessTokenRotate,
  OutputAccess,
  type StreamOutput,
  type StreamOutputUpdate,
  streamRoutes,
} from '@streamcloud/contract';
import plusLgIcon from 'bootstrap-icons/icons/plus-lg.svg?raw';
import { useState } from 'react';
import Badge from 'react-bootstrap/Badge';
import Button from 'react-bootstrap/Button';
import { CopyableValue } from '@/components/ui/copy-button';
import { ChoiceField } from '@/components/ui/form-fields';
import { Icon } from '@/components/ui/icon';
import { Loading } from '@/components/ui/loading';
import { useNotify } from '@/components/ui/notifications';
import { useRouteMutation } from '@/data/route-mutation';
import { useStream } from '@/data/streams/get-stream';
import { streamKeys } from '@/data/streams/keys';
import { useOutputs } from '@/data/streams/outputs';
import { OUTPUT_ACCESS_LABELS, STREAM_ERRORS } from '../utils/messages';
import { embedCode, outputEndpoint, outputPlaybackUrl } from '../utils/stream-connection';
import { DashboardCard } from './dashboard-card';
import { HlsOutputFields } from './hls-output-fields';
import { OutputModal } from './output-modal';
import { PlaybackToken } from './playback-token';
import { TokenRotation } from './token-rotation';

function OutputItem({
  output,
  onClear,
  onDelete,
  onChange,
  busy,
}: {
  output: StreamOutput;
  onClear: () => void;
  onDelete: () => void;
  /** A new access policy or HLS latency, applied live. */
  onChange: (change: StreamOutputUpdate) => void;
  busy: boolean;
}) {
  const endpoint = outputEndpoint(output);
  const url = outputPlaybackUrl(output);
  const token = output.viewer.accessToken;
  const sessions = output.sessions.length;
  const { previews } = output;
  const embed = embedCode(output, window.location.origin);
  return (
    <li className="list-group-item" aria-label={`Viewer ${output.name}`} data-output-id={output.id}>
      <div className="d-flex flex-wrap align-items-center gap-2 mb-1">
        <Badge bg="secondary">{output.format}</Badge>
        <code className="small text-break">{output.name}</code>
        <span className="ms-auto small text-secondary">{sessions === 1 ? '1 session' : `${sessions} sessions`}</span>
        {/* The console's own preview player: not a viewer, not billed (docs/decisions.md). */}
        {previews > 0 && (
          <Badge bg="info" text="dark">
            {previews === 1 ? '1 preview' : `${previews} previews`}
          </Badge>
        )}
      </div>
      {endpoint && url && <CopyableValue value={endpoint} copy={url} label="Copy URL" />}
      {/* The embeddable player page of this output (issue 37), for another site to show it. */}
      {embed && (
        <div className="mt-1">
          <div className="small text-secondary">Embed</div>
          <CopyableValue value={embed} label="Copy embed code" />
        </div>
      )}
      {/* The ingest node, or an edge of an Outgoing node group that pulls the stream (docs/decisions.md). */}
      {output.node && <div className="small text-secondary">Served by node {output.node.name}</div>}
      {/* A Signed output keeps its static token (a return to Private plays it again) but refuses it meanwhile. */}
      {token && output.access === 'Private' && <PlaybackToken token={token} />}
      {token && output.access === 'Private' && <OutputTokenRotation output={output} />}
      <div className="mt-2" style={{ maxWidth: '18rem' }}>
        <ChoiceField
          id={`output-access-${output.id}`}
          label="Access"
          values={OutputAccess.options}
          optionLabel={(value) => OUTPUT_ACCESS_LABELS[value]}
          value={output.access}
          disabled={busy}
          onChoose={(access) => onChange({ access })}
        />
        {output.hlsLatency && (
          <HlsOutputFields
            id={`output-${output.id}`}
            latency={output.hlsLatency}
            dvrWindowMinutes={output.dvrWindowMinutes}
            disabled={busy}
            onLatency={(hlsLatency) => onChange({ hlsLatency })}
            onDvrWindow={(dvrWindowMinutes) => onChange({ dvrWindowMinutes })}
          />
        )}
      </div>
      <div className="d-flex gap-2 mt-2">
        <Button size="sm" variant="outline-secondary" onClick={onClear} disabled={busy}>
          Clear sessions
        </Button>
        <Button size="sm" variant="outline-danger" onClick={onDelete} disabled={busy}>
          Delete
        </Button>
      </div>
    </li>
  );
}

/** What a failed change of an output says (the API's message when it gave one). */
const changeFailure = (change: StreamOutputUpdate) =>
  change.access
    ? STREAM_ERRORS.outputAccess
    : change.dvrWindowMinutes !== undefined
      ? STREAM_ERRORS.outputDvr
      : STREAM_ERRORS.outputLatency;

/** When the output's viewer token was last rotated, and its rotation. */
function OutputTokenRotation({ output }: { output: StreamOutput }) {
  // The stream's viewers are read again: the token and when it was rotated.
  const rotate = useRouteMutation(streamRoutes.rotateOutputAccessToken, {
    toRequest: (body: AccessTokenRotate) => ({ params: { id: output.id }, body }),
    invalidates: () => [streamKeys.outputs(output.streamId)],
  });
  return (
    <TokenRotation
      what="playback token"
      id={`output-${output.id}-token`}
      rotatedAt={output.viewer.accessTokenRotatedAt}
      rotate={(body) => rotate.mutateAsync(body)}
    />
  );
}

/** The stream's outputs, 4 per page, with 'Load more', session cleanup, delete and creation. */
export function ViewersCard({ streamId }: { streamId: string }) {
  const notify = useNotify();
  const outputs = useOutputs(streamId);
  // Each change to an output reads the stream's viewers again.
  const invalidates = () => [streamKeys.outputs(streamId)];
  const clear = useRouteMutation(streamRoutes.clearOutputSessions, {
    toRequest: (id: string) => ({ params: { id } }),
    invalidates,
  });
  const remove = useRouteMutation(streamRoutes.deleteOutput, {
    toRequest: (id: string) => ({ params: { id } }),
    invalidates,
  });
  // An output's access policy: live, its node applies it at once.
  const update = useRouteMutation(streamRoutes.updateOutput, {
    toRequest: ({ id, body }: { id: string; body: StreamOutputUpdate }) => ({ params: { id }, body }),
    invalidates,
  });
  // New outputs take the stream's policy unless told otherwise (the API's default too).
  const stream = useStream(streamId);
  const defaultAccess: OutputAccess = stream.data?.access === 'Private' ? 'Private' : 'Public';
  const [creating, setCreating] = useState(false);
  const [busyId, setBusyId] = useState<string | null>(null);

  const pages = outputs.data?.pages ?? [];
  const seen = new Set<string>();
  const items = pages.flatMap((page) => page.items).filter((output) => !seen.has(output.id) && seen.add(output.id));
  const total = pages.at(-1)?.total ?? 0;

  const onClear = (id: string) => {
    setBusyId(id);
    clear.mutate(id, {
      onError: (error) => notify(messageOr(error, STREAM_ERRORS.sessionsCleanup)),
      onSettled: () => setBusyId(null),
    });
  };
  const onDelete = (id: string) => {
    setBusyId(id);
    remove.mutate(id, {
      onError: (error) => notify(messageOr(error, STREAM_ERRORS.outputDelete)),
      onSettled: () => setBusyId(null),
    });
  };

  const onChange = (id: string, change: StreamOutputUpdate) => {
    setBusyId(id);
    update.mutate(
      { id, body: change },
      {
        onError: (error) => notify(messageOr(error, changeFailure(change))),
        onSettled: () => setBusyId(null),
      },
    );
  };

  return (
    <DashboardCard
      title="Viewers"
      actions={
        <Button size="sm" variant="outline-primary" onClick={() => setCreating(true)}>
          <Icon svg={plusLgIcon} className="me-1" />
          Add viewer
        </Button>
      }
    >
      {outputs.isPending ? (
        <Loading />
      ) : items.length === 0 ? (
        <p className="text-secondary mb-0">
          {outputs.isError ? 'The viewers could not be loaded.' : 'No viewers yet.'}
        </p>
      ) : (
        <>
          <p className="small text-secondary">{`${items.length} of ${total} viewers`}</p>
          <ul className="list-group" aria-label="Viewers">
            {items.map((output) => (
              <OutputItem
                key={output.id}
                output={output}
                busy={busyId === output.id}
                onClear={() => onClear(output.id)}
                onDelete={() => onDelete(output.id)}
                onChange={(change) => onChange(output.id, change)}
              />
            ))}
          </ul>
          {items.length < total && (
            <Button
              className="mt-2"
              size="sm"
              variant="link"
              onClick={() => void outputs.fetchNextPage()}
              disabled={outputs.isFetchingNextPage}
            >
              Load more
            </Button>
          )}
        </>
      )}
      <OutputModal
        streamId={streamId}
        defaultAccess={defaultAccess}
        show={creating}
        onHide={() => setCreating(false)}
      />
    </DashboardCard>
  );
}
