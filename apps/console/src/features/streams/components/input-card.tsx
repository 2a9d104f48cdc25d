import {
  type AccessTokenRotate,
  type IngressEndpoint,
  type ServingNode,
  type StreamInput,
  streamRoutes,
} from '@streamcloud/contract';
import { CopyableValue } from '@/components/ui/copy-button';
import { useRouteMutation } from '@/data/route-mutation';
import { streamKeys } from '@/data/streams/keys';
import { inputEndpoint, internodeNote, isPrivateAccess, streamNameOf } from '../utils/stream-connection';
import { NO_ENDPOINT_YET, RTSP_TCP_ONLY } from './connection-modal';
import { DashboardCard, Detail, NONE } from './dashboard-card';
import { TokenRotation } from './token-rotation';

/** Stream name, endpoint, access token (private modes only) and the GSLB ingress endpoint. */
export function InputCard({ stream, ingress }: { stream: StreamInput; ingress: IngressEndpoint | undefined }) {
  const endpoint = inputEndpoint(stream.connection);
  return (
    <DashboardCard title="Input">
      <dl className="mb-0">
        <Detail label="Stream name">
          <code>{streamNameOf(stream)}</code>
        </Detail>
        <Detail label="Endpoint">
          {endpoint ? (
            <CopyableValue value={endpoint} label="Copy endpoint" />
          ) : (
            <span className="text-secondary">{NO_ENDPOINT_YET}</span>
          )}
          {stream.format === 'RTSP' && <div className="small text-secondary">{RTSP_TCP_ONLY}</div>}
          {stream.format === 'Internode' && <div className="small text-secondary">{internodeNote(stream)}</div>}
        </Detail>
        {isPrivateAccess(stream.access) && (
          <Detail label="Access token">
            {stream.accessToken ? <CopyableValue value={stream.accessToken} label="Copy token" /> : NONE}
            <IngestTokenRotation stream={stream} />
          </Detail>
        )}
        <Detail label="Serving node">{stream.servingNode ? stream.servingNode.name : NONE}</Detail>
        <Detail label="Node groups">{stream.servingNode ? <NodeGroups node={stream.servingNode} /> : NONE}</Detail>
        <Detail label="GSLB ingress endpoint">
          {ingress ? <CopyableValue value={ingress.connection.uri} label="Copy ingress endpoint" /> : NONE}
        </Detail>
      </dl>
    </DashboardCard>
  );
}

/** When the ingest token was last rotated, and its rotation. */
function IngestTokenRotation({ stream }: { stream: StreamInput }) {
  // The dashboard reads the stream again: its token and when it was rotated.
  const rotate = useRouteMutation(streamRoutes.rotateAccessToken, {
    toRequest: (body: AccessTokenRotate) => ({ params: { id: stream.id }, body }),
    invalidates: () => [streamKeys.detail(stream.id)],
  });
  return (
    <TokenRotation
      what="access token"
      id="input-token"
      rotatedAt={stream.accessTokenRotatedAt}
      rotate={(body) => rotate.mutateAsync(body)}
    />
  );
}

/** The serving node's groups the reader may see, each with its job and, for the cloud's own, whose it is. */
function NodeGroups({ node }: { node: ServingNode }) {
  if (node.groups.length === 0) return <span className="text-secondary">None: the shared pool</span>;
  return (
    <ul className="list-unstyled mb-0">
      {node.groups.map((group) => (
        <li key={group.id}>
          {group.name} ({group.assignment}
          {group.ownerId === null ? ', streaming cloud' : ''})
        </li>
      ))}
    </ul>
  );
}
