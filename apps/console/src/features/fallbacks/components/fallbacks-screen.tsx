import { errorStatus, messageOr } from '@streamcloud/api-client';
import { FALLBACK_STATE_VARIANTS, type Fallback, type FallbackInputDraft, fallbackRoutes } from '@streamcloud/contract';
import arrowLeftIcon from 'bootstrap-icons/icons/arrow-left.svg?raw';
import pencilIcon from 'bootstrap-icons/icons/pencil.svg?raw';
import plusLgIcon from 'bootstrap-icons/icons/plus-lg.svg?raw';
import trashIcon from 'bootstrap-icons/icons/trash.svg?raw';
import { useState } from 'react';
import Badge from 'react-bootstrap/Badge';
import Button from 'react-bootstrap/Button';
import Table from 'react-bootstrap/Table';
import { Link, useParams } from 'react-router';
import { ColumnHeaders } from '@/components/ui/column-headers';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { Icon } from '@/components/ui/icon';
import { Loading } from '@/components/ui/loading';
import { useNotify } from '@/components/ui/notifications';
import { PageShell } from '@/components/ui/page-shell';
import { fallbackKeys } from '@/data/fallbacks/keys';
import { pollWhileFound } from '@/data/poll';
import { useRouteMutation } from '@/data/route-mutation';
import { useRouteQuery } from '@/data/route-query';
import { FallbackFormModal } from './fallback-form-modal';

/** Section 8's texts when the server gives no message. */
export const CREATE_FAILED = 'Something wrong with fallback creating';
export const UPDATE_FAILED = 'Something wrong with fallback updating';
export const DELETE_FAILED = 'Something wrong with fallback delete';
export const DELETE_QUESTION = 'Do you really want to delete fallback? This cannot be undone.';

/** Nodes report each fallback's state: the list is re-polled like the other stream dashboards. */
const FALLBACKS_POLL_MS = 5_000;

type Editing = { mode: 'add' } | { mode: 'edit'; fallback: Fallback } | null;

function Source({ fallback }: { fallback: Fallback }) {
  const resource = fallback.settings.resources[0];
  if (!resource) return <span className="text-secondary">None</span>;
  if (resource.type === 'DATA_URI') {
    return (
      <img
        src={resource.data}
        alt={`Slate of ${fallback.label ?? fallback.id}`}
        className="img-thumbnail"
        style={{ maxHeight: 48 }}
      />
    );
  }
  return (
    <span className="text-break">
      <span className="text-secondary me-1">{resource.type === 'URL' ? 'URL' : 'Storage'}:</span>
      {resource.data}
    </span>
  );
}

function FallbackRows({
  streamId,
  fallbacks,
  onEdit,
  onDelete,
}: {
  streamId: string;
  fallbacks: Fallback[];
  onEdit: (fallback: Fallback) => void;
  onDelete: (fallback: Fallback) => void;
}) {
  if (fallbacks.length === 0) return <p className="text-secondary">No fallbacks yet.</p>;
  return (
    <Table responsive className="align-middle" aria-label={`Fallbacks of stream ${streamId}`}>
      <ColumnHeaders columns={['Label', 'Type', 'Source', 'State', { hidden: 'Actions' }]} />
      <tbody>
        {fallbacks.map((fallback) => {
          const name = fallback.label ?? fallback.id;
          return (
            <tr key={fallback.id}>
              <td>{fallback.label ?? <span className="text-secondary">{fallback.id}</span>}</td>
              <td>{fallback.type}</td>
              <td>
                <Source fallback={fallback} />
              </td>
              <td>
                <Badge bg={FALLBACK_STATE_VARIANTS[fallback.state]}>{fallback.state}</Badge>
                {fallback.message && <div className="small text-secondary">{fallback.message}</div>}
              </td>
              <td className="text-end text-nowrap">
                <Button
                  size="sm"
                  variant="outline-secondary"
                  className="me-2"
                  aria-label={`Edit fallback ${name}`}
                  onClick={() => onEdit(fallback)}
                >
                  <Icon svg={pencilIcon} /> Edit
                </Button>
                <Button
                  size="sm"
                  variant="outline-danger"
                  aria-label={`Delete fallback ${name}`}
                  onClick={() => onDelete(fallback)}
                >
                  <Icon svg={trashIcon} /> Delete
                </Button>
              </td>
            </tr>
          );
        })}
      </tbody>
    </Table>
  );
}

/** /streams/fallback/{id}: the stream's fallbacks with their states; add, edit, delete; back to the dashboard. */
export function FallbacksScreen() {
  const { id: streamId = '' } = useParams();
  const fallbacks = useRouteQuery(
    fallbackRoutes.list,
    fallbackKeys.list(streamId),
    { query: { streamId } },
    { refetchInterval: pollWhileFound(FALLBACKS_POLL_MS) },
  );
  const createFallback = useRouteMutation(fallbackRoutes.create, {
    toRequest: (body: FallbackInputDraft) => ({ body }),
    invalidates: (fallback) => [fallbackKeys.list(fallback.streamId)],
  });
  const updateFallback = useRouteMutation(fallbackRoutes.update, {
    toRequest: ({ id, body }: { id: string; body: FallbackInputDraft }) => ({ params: { id }, body }),
    invalidates: (fallback) => [fallbackKeys.list(fallback.streamId)],
  });
  const deleteFallback = useRouteMutation(fallbackRoutes.delete, {
    toRequest: (id: string) => ({ params: { id } }),
    invalidates: () => [fallbackKeys.list(streamId)],
  });
  const notify = useNotify();
  const [editing, setEditing] = useState<Editing>(null);
  const [deleting, setDeleting] = useState<Fallback | null>(null);

  const save = async (body: FallbackInputDraft) => {
    try {
      if (editing?.mode === 'edit') await updateFallback.mutateAsync({ id: editing.fallback.id, body });
      else await createFallback.mutateAsync(body);
      setEditing(null);
    } catch (error) {
      notify(messageOr(error, editing?.mode === 'edit' ? UPDATE_FAILED : CREATE_FAILED));
      throw error;
    }
  };

  const remove = async () => {
    const target = deleting;
    setDeleting(null);
    if (!target) return;
    try {
      await deleteFallback.mutateAsync(target.id);
    } catch (error) {
      notify(messageOr(error, DELETE_FAILED));
    }
  };

  return (
    <PageShell
      title="Fallbacks"
      actions={
        <div className="d-flex flex-wrap gap-2">
          <Link className="btn btn-outline-secondary" to={`/streams/view/${streamId}`}>
            <Icon svg={arrowLeftIcon} className="me-1" />
            Back
          </Link>
          <Button disabled={!fallbacks.isSuccess} onClick={() => setEditing({ mode: 'add' })}>
            <Icon svg={plusLgIcon} className="me-1" />
            Add fallback
          </Button>
        </div>
      }
    >
      {fallbacks.isPending && <Loading />}
      {fallbacks.isError && (
        <p className="text-danger">
          {errorStatus(fallbacks.error) === 404 ? 'This stream does not exist.' : 'The fallbacks could not be loaded.'}
        </p>
      )}
      {fallbacks.isSuccess && (
        <FallbackRows
          streamId={streamId}
          fallbacks={fallbacks.data}
          onEdit={(fallback) => setEditing({ mode: 'edit', fallback })}
          onDelete={setDeleting}
        />
      )}
      <FallbackFormModal
        key={editing?.mode === 'edit' ? editing.fallback.id : 'new'}
        show={editing !== null}
        streamId={streamId}
        {...(editing?.mode === 'edit' ? { fallback: editing.fallback } : {})}
        onSave={save}
        onCancel={() => setEditing(null)}
      />
      <ConfirmDialog
        show={deleting !== null}
        title="Delete fallback"
        message={DELETE_QUESTION}
        onConfirm={() => void remove()}
        onCancel={() => setDeleting(null)}
      />
    </PageShell>
  );
}
