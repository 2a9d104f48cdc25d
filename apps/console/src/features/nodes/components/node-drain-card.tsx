import { messageOr } from '@streamcloud/api-client';
import type { Node, NodeDrain } from '@streamcloud/contract';
import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { Loading } from '@/components/ui/loading';
import { useNotify } from '@/components/ui/notifications';
import { TitledCard } from '@/components/ui/titled-card';
import { useNodeDrain, useSetNodeDrain } from '@/data/nodes/drain';
import { formatDateTime } from '@/lib/format';

export const DRAIN_FAILED = 'Something wrong with node draining';

const plural = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;

/** What is left on the node, in words. */
export function drainSummary(drain: NodeDrain): string {
  const left = [
    plural(drain.liveStreams, 'live stream', 'live streams'),
    plural(drain.otherStreams, 'other stream', 'other streams'),
    plural(drain.edgeOutputs, 'viewer output', 'viewer outputs'),
  ].join(', ');
  if (!drain.draining) return `Takes new streams and viewers. On it: ${left}.`;
  if (drain.drained)
    return `Drained since ${formatDateTime(drain.since ?? '')}: nothing runs here, the node may be stopped.`;
  return `Draining since ${formatDateTime(drain.since ?? '')}: ${left} left. Live streams move once their push ends.`;
}

/** Drain before maintenance: nothing new goes to the node, and what runs there moves away (docs/decisions.md). */
export function NodeDrainCard({ node }: { node: Node }) {
  const drain = useNodeDrain(node.id);
  const setDrain = useSetNodeDrain(node.id);
  const notify = useNotify();
  const [confirming, setConfirming] = useState(false);

  const change = async (draining: boolean) => {
    setConfirming(false);
    try {
      await setDrain.mutateAsync(draining);
      notify('OK', 'success');
    } catch (error) {
      notify(messageOr(error, DRAIN_FAILED));
    }
  };

  return (
    <TitledCard title="Drain">
      {drain.isPending ? (
        <Loading />
      ) : drain.isError ? (
        <p className="text-danger">{messageOr(drain.error, 'The drain could not be loaded.')}</p>
      ) : (
        <>
          <p role="status">{drainSummary(drain.data)}</p>
          {drain.data.draining ? (
            <Button variant="outline-secondary" disabled={setDrain.isPending} onClick={() => void change(false)}>
              Stop draining
            </Button>
          ) : (
            <Button variant="outline-warning" disabled={setDrain.isPending} onClick={() => setConfirming(true)}>
              Drain
            </Button>
          )}
        </>
      )}
      <ConfirmDialog
        show={confirming}
        title="Drain node"
        message={`Drain node ${node.name}? New streams and viewers go to other nodes; its idle streams and the viewers it serves as an edge move now, live streams once their push ends.`}
        onConfirm={() => void change(true)}
        onCancel={() => setConfirming(false)}
      />
    </TitledCard>
  );
}
