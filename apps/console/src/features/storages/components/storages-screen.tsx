import { type ClipStorageUse, DEFAULT_S3_REGION, STORAGE_TYPE_LABELS, type Storage } from '@streamcloud/contract';
import Table from 'react-bootstrap/Table';
import { Link } from 'react-router';
import { AddLink } from '@/components/ui/add-link';
import { ColumnHeaders } from '@/components/ui/column-headers';
import { ListQuery } from '@/components/ui/list-query';
import { PageShell } from '@/components/ui/page-shell';
import { useClipStorageUse } from '@/data/clips/storage-use';
import { useStorages } from '@/data/storages/get-storages';
import { formatBytes } from '@/lib/format';

/** Where the storage is: the endpoint of an S3-compatible server, or the AWS region. */
function location(storage: Storage): string {
  if (storage.type === 'AmazonS3Compatible') return storage.endpoint ?? '';
  return storage.regionName ?? DEFAULT_S3_REGION;
}

/** What the storage holds of clips ("2 clips, 1.5 MB"), "–" for none, nothing while unknown (still loading, or failed). */
function clipsIn(use: ClipStorageUse[] | undefined, storageId: string): string {
  if (!use) return '';
  const held = use.find((entry) => entry.storageId === storageId);
  if (!held) return '–';
  return `${held.clips} ${held.clips === 1 ? 'clip' : 'clips'}, ${formatBytes(held.bytes)}`;
}

/**
 * /storages: the account's storages (every account's for an ADMIN), each linking to its form, with what the clips
 * cut into it take there (clips live in the account's own buckets).
 */
export function StoragesScreen() {
  const storages = useStorages();
  const clipUse = useClipStorageUse();
  return (
    <PageShell title="Storages" actions={<AddLink to="/storages/create">Add storage</AddLink>}>
      <ListQuery query={storages} failed="The storages could not be loaded." empty={<p>No storages yet.</p>}>
        {(items) => (
          <Table responsive hover className="align-middle">
            <ColumnHeaders columns={['Name', 'Type', 'Bucket', 'Path', 'Endpoint or region', 'Clips', 'Owner']} />
            <tbody>
              {items.map((storage) => (
                <tr key={storage.id}>
                  <td>
                    <Link to={`/storages/edit/${storage.id}`}>{storage.name}</Link>
                  </td>
                  <td>{STORAGE_TYPE_LABELS[storage.type]}</td>
                  <td className="text-break">{storage.bucket}</td>
                  <td className="text-break">{storage.path}</td>
                  <td className="text-break">{location(storage)}</td>
                  <td>{clipsIn(clipUse.data, storage.id)}</td>
                  <td>{storage.ownerUsername}</td>
                </tr>
              ))}
            </tbody>
          </Table>
        )}
      </ListQuery>
    </PageShell>
  );
}
