import type { nodeRoutes, ResponseOf } from '@streamcloud/contract';
import { Fragment } from 'react';

/** The node's own metadata, fetched live from the node through the control plane. */
type NodeMetadata = ResponseOf<typeof nodeRoutes.metadata>;

function Value({ value }: { value: unknown }) {
  if (value === null || value === undefined) return <span className="text-secondary">—</span>;
  if (typeof value === 'object') {
    return <pre className="mb-0 small bg-body-tertiary p-2 rounded">{JSON.stringify(value, null, 2)}</pre>;
  }
  return <span className="text-break">{String(value)}</span>;
}

/** The node's metadata as a definition list; nested values as formatted JSON. */
export function NodeMetadataView({ metadata }: { metadata: NodeMetadata }) {
  const entries = Object.entries(metadata);
  if (entries.length === 0) return <p className="mb-0">The node sent no metadata.</p>;
  return (
    <dl className="row mb-0" aria-label="Node metadata">
      {entries.map(([key, value]) => (
        <Fragment key={key}>
          <dt className="col-sm-4 text-break">{key}</dt>
          <dd className="col-sm-8">
            <Value value={value} />
          </dd>
        </Fragment>
      ))}
    </dl>
  );
}
