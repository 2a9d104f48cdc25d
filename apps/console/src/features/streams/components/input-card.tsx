import type { IngressEndpoint, StreamInput } from '@streamcloud/contract';
import { inputEndpoint, isPrivateAccess, streamNameOf } from '../utils/stream-connection';
import { NO_ENDPOINT_YET } from './connection-modal';
import { CopyableValue } from './copy-button';
import { DashboardCard, Detail, NONE } from './dashboard-card';

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
        </Detail>
        {isPrivateAccess(stream.access) && (
          <Detail label="Access token">
            {stream.accessToken ? <CopyableValue value={stream.accessToken} label="Copy token" /> : NONE}
          </Detail>
        )}
        <Detail label="GSLB ingress endpoint">
          {ingress ? <CopyableValue value={ingress.connection.uri} label="Copy ingress endpoint" /> : NONE}
        </Detail>
      </dl>
    </DashboardCard>
  );
}
