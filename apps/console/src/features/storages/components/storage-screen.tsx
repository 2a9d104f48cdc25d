import { errorStatus, isApiError, messageOr } from '@streamcloud/api-client';
import {
  type Storage,
  type StorageCheckResult,
  type StorageCreateInput,
  type StorageSaved,
  type StorageUpdateInput,
  storageRoutes,
} from '@streamcloud/contract';
import { useEffect, useState } from 'react';
import Button from 'react-bootstrap/Button';
import { Link, Navigate, useLocation, useNavigate, useParams } from 'react-router';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { Loading } from '@/components/ui/loading';
import { useNotify } from '@/components/ui/notifications';
import { PageShell } from '@/components/ui/page-shell';
import { deletesResource, savesResource } from '@/data/resource-writes';
import { useRouteMutation } from '@/data/route-mutation';
import { useStorage } from '@/data/storages/get-storage';
import { storageKeys } from '@/data/storages/keys';
import { ConnectionCheck } from './connection-check';
import { type StorageBody, StorageForm } from './storage-form';

/** The spec's text when removing a storage fails (section 8). */
export const DELETE_FAILED = 'Something wrong';
export const SAVE_FAILED = 'The storage could not be saved';
export const CHECK_FAILED = 'The connection check could not be run';
export const SAVED = 'Storage saved';

/** Carries the check run on creation from the create screen to the edit screen, once. */
interface CreatedState {
  check?: StorageCheckResult | null;
}

/**
 * A save answers the storage and the connection check the server ran after saving it: the storage alone is
 * shown at once, and the lists read again.
 */
const savesStorage = {
  ...savesResource(storageKeys),
  cached: ({ check: _check, warning: _warning, ...storage }: StorageSaved): Storage => storage,
};

const BackLink = () => (
  <Link className="btn btn-outline-secondary" to="/storages">
    Back to storages
  </Link>
);

/** Tells the outcome of a save: saved, and the check's warning when it failed. */
function useReportSaved() {
  const notify = useNotify();
  return (saved: StorageSaved) => {
    notify(SAVED, 'success');
    if (saved.warning) notify(saved.warning, 'warning');
  };
}

function CreateStorage() {
  const createStorage = useRouteMutation(storageRoutes.create, {
    toRequest: (body: StorageCreateInput) => ({ body }),
    ...savesStorage,
  });
  const reportSaved = useReportSaved();
  const notify = useNotify();
  const navigate = useNavigate();

  const save = async (body: StorageBody) => {
    try {
      const created = await createStorage.mutateAsync(body);
      reportSaved(created);
      navigate(`/storages/edit/${created.id}`, {
        replace: true,
        state: { check: created.check } satisfies CreatedState,
      });
    } catch (error) {
      if (!isApiError(error) || !error.errors?.length) notify(messageOr(error, SAVE_FAILED));
      throw error;
    }
  };

  return (
    <PageShell title="New storage" actions={<BackLink />}>
      <StorageForm onSave={save} />
    </PageShell>
  );
}

function EditStorage({ storage }: { storage: Storage }) {
  // A blank or absent secret keeps the stored one.
  const updateStorage = useRouteMutation(storageRoutes.update, {
    toRequest: (body: StorageUpdateInput) => ({ params: { id: storage.id }, body }),
    ...savesStorage,
  });
  // Refused (409) while a recording uses the storage.
  const deleteStorage = useRouteMutation(storageRoutes.delete, {
    toRequest: (id: string) => ({ params: { id } }),
    ...deletesResource(storageKeys),
  });
  // The connection check with the stored credentials; an unreachable bucket is a result, not an error.
  const checkStorage = useRouteMutation(storageRoutes.check, { toRequest: (id: string) => ({ params: { id } }) });
  const reportSaved = useReportSaved();
  const notify = useNotify();
  const navigate = useNavigate();
  const location = useLocation();
  const [check, setCheck] = useState<StorageCheckResult | null>(
    () => (location.state as CreatedState | null)?.check ?? null,
  );
  const [confirming, setConfirming] = useState(false);
  const [deleteDetail, setDeleteDetail] = useState<string | null>(null);

  // The creation's check is shown once: reloading the page does not bring it back.
  useEffect(() => {
    if ((location.state as CreatedState | null)?.check) navigate(location.pathname, { replace: true, state: null });
  }, [location, navigate]);

  const save = async (body: StorageBody) => {
    try {
      const saved = await updateStorage.mutateAsync(body);
      reportSaved(saved);
      setCheck(saved.check);
    } catch (error) {
      if (!isApiError(error) || !error.errors?.length) notify(messageOr(error, SAVE_FAILED));
      throw error;
    }
  };

  const runCheck = async () => {
    setCheck(null);
    try {
      setCheck(await checkStorage.mutateAsync(storage.id));
    } catch (error) {
      notify(messageOr(error, CHECK_FAILED));
    }
  };

  const remove = async () => {
    setConfirming(false);
    setDeleteDetail(null);
    try {
      await deleteStorage.mutateAsync(storage.id);
      navigate('/storages');
    } catch (error) {
      notify(DELETE_FAILED);
      setDeleteDetail(isApiError(error) ? (error.serverMessage ?? null) : null);
    }
  };

  return (
    <PageShell
      title={storage.name}
      actions={
        <div className="d-flex flex-wrap gap-2">
          <BackLink />
          <Button variant="outline-primary" disabled={checkStorage.isPending} onClick={() => void runCheck()}>
            {checkStorage.isPending ? 'Checking connection…' : 'Check connection'}
          </Button>
          <Button variant="outline-danger" disabled={deleteStorage.isPending} onClick={() => setConfirming(true)}>
            Delete
          </Button>
        </div>
      }
    >
      {deleteDetail && <p className="text-danger">{deleteDetail}</p>}
      <p className="text-secondary">Owner: {storage.ownerUsername}</p>
      {checkStorage.isPending && <Loading label="Checking connection..." />}
      {check && <ConnectionCheck result={check} />}
      <StorageForm key={storage.id} storage={storage} onSave={save} />
      <ConfirmDialog
        show={confirming}
        title="Delete storage"
        message={`Delete storage ${storage.name}? Recordings can no longer be uploaded to it.`}
        onConfirm={() => void remove()}
        onCancel={() => setConfirming(false)}
      />
    </PageShell>
  );
}

function LoadStorage({ id }: { id: string }) {
  const storage = useStorage(id);
  if (storage.isPending) {
    return (
      <PageShell title="Storage">
        <Loading />
      </PageShell>
    );
  }
  if (storage.isError) {
    return (
      <PageShell title="Storage" actions={<BackLink />}>
        <p className="text-danger">
          {errorStatus(storage.error) === 404 ? 'This storage does not exist.' : 'The storage could not be loaded.'}
        </p>
      </PageShell>
    );
  }
  return <EditStorage storage={storage.data} />;
}

/** /storages/create and /storages/edit/{id}; any other mode goes back to the list. */
export function StorageScreen() {
  const { mode, id } = useParams();
  if (mode === 'create' && !id) return <CreateStorage />;
  if (mode === 'edit' && id) return <LoadStorage key={id} id={id} />;
  return <Navigate to="/storages" replace />;
}
