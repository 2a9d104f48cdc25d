import { isApiError } from '@streamcloud/api-client';
import { type Node, NodeRefreshMode, nodeRoutes } from '@streamcloud/contract';
import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import { ChoiceField } from '@/components/ui/form-fields';
import { HeadedSection } from '@/components/ui/headed-section';
import { useNotify } from '@/components/ui/notifications';
import { TitledCard } from '@/components/ui/titled-card';
import { useRouteMutation } from '@/data/route-mutation';
import { NodeMetadataView } from './node-metadata-view';

export const METADATA_FAILED = 'Something wrong with node metadata request';

/** Refresh from a chosen mode, and a live metadata request: both reach the node itself. */
export function NodeTools({ node }: { node: Node }) {
  const notify = useNotify();
  // Both reach the node itself through the control plane; the metadata is asked for with a button, so it is a
  // mutation rather than a cached query.
  const refresh = useRouteMutation(nodeRoutes.refresh, {
    toRequest: ({ id, mode }: { id: string; mode: NodeRefreshMode }) => ({ params: { id }, body: { mode } }),
  });
  const metadata = useRouteMutation(nodeRoutes.metadata, { toRequest: (id: string) => ({ params: { id } }) });
  const [mode, setMode] = useState<NodeRefreshMode>('ALL');

  const runRefresh = async () => {
    try {
      await refresh.mutateAsync({ id: node.id, mode });
      notify('OK', 'success');
    } catch (error) {
      console.error(`Refreshing node ${node.name} (${mode}) failed`, error);
    }
  };

  const requestMetadata = async () => {
    try {
      await metadata.mutateAsync(node.id);
    } catch (error) {
      console.error(`The metadata request of node ${node.name} failed`, error);
      notify(METADATA_FAILED);
    }
  };

  return (
    <TitledCard title="Node control">
      <div className="row align-items-end">
        <div className="col-md-5">
          <ChoiceField
            id="node-refresh-mode"
            label="Refresh mode"
            values={NodeRefreshMode.options}
            value={mode}
            onChoose={setMode}
          />
        </div>
        <div className="col-md-7 d-flex flex-wrap gap-2 mb-3">
          <Button variant="outline-primary" disabled={refresh.isPending} onClick={() => void runRefresh()}>
            Refresh
          </Button>
          <Button variant="outline-secondary" disabled={metadata.isPending} onClick={() => void requestMetadata()}>
            Metadata
          </Button>
        </div>
      </div>
      {metadata.isSuccess && (
        <HeadedSection id="node-metadata-title" title="Metadata">
          <NodeMetadataView metadata={metadata.data} />
        </HeadedSection>
      )}
      {metadata.isError && isApiError(metadata.error) && metadata.error.serverMessage && (
        <p className="small text-danger mb-0">{metadata.error.serverMessage}</p>
      )}
    </TitledCard>
  );
}
