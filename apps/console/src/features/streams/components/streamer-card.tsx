import type { StreamInput } from '@streamcloud/contract';
import { DashboardCard, Detail, NONE } from './dashboard-card';

/** The streamer's ipAddress, the callbackUri and the parameters. */
export function StreamerCard({ stream }: { stream: StreamInput }) {
  const parameters = Object.entries(stream.parameters);
  return (
    <DashboardCard title="Streamer">
      <dl className="mb-0">
        <Detail label="IP address">{stream.streamer.ipAddress ?? NONE}</Detail>
        <Detail label="Callback URI">{stream.callbackUri ?? NONE}</Detail>
        <Detail label="Parameters">
          {parameters.length === 0 ? (
            NONE
          ) : (
            <pre className="small mb-0">{JSON.stringify(stream.parameters, null, 2)}</pre>
          )}
        </Detail>
      </dl>
    </DashboardCard>
  );
}
