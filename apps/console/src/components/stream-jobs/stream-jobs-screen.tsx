import { errorStatus } from '@streamcloud/api-client';
import plusLgIcon from 'bootstrap-icons/icons/plus-lg.svg?raw';
import { type ReactNode, useState } from 'react';
import Button from 'react-bootstrap/Button';
import { Navigate, useParams } from 'react-router';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { Icon } from '@/components/ui/icon';
import { Loading } from '@/components/ui/loading';
import { StreamPageShell } from '@/components/ui/stream-page-shell';
import { JobListItem, type JobSummary } from './job-list-item';
import { type StreamJob, splitByAutostart } from './stream-job';
import type { StreamJobsFeature } from './stream-jobs-feature';
import { useJobControls } from './use-job-controls';

export interface StreamJobsScreenProps<T extends StreamJob> {
  feature: StreamJobsFeature<T>;
  summary: (job: T) => JobSummary;
  /** The create/edit form modal for the stream; `job` is absent when creating. */
  renderForm: (props: { streamId: string; show: boolean; job: T | undefined; onHide: () => void }) => ReactNode;
  /** The info modal of the job `id`; null when closed. */
  renderInfo: (props: { id: string | null; onHide: () => void }) => ReactNode;
}

type Dialog<T> =
  | { kind: 'create' }
  | { kind: 'edit'; job: T }
  | { kind: 'info'; id: string }
  | { kind: 'delete'; job: T }
  | null;

/** A stream's jobs, autostarting first, with the create, edit, info and delete dialogs. */
function StreamJobsPage<T extends StreamJob>({
  streamId,
  feature,
  summary,
  renderForm,
  renderInfo,
}: StreamJobsScreenProps<T> & { streamId: string }) {
  const { noun, texts } = feature;
  const jobs = feature.useJobs(streamId);
  const { actionsOf, stopJob, deleteJob } = useJobControls(feature);
  const [dialog, setDialog] = useState<Dialog<T>>(null);
  const close = () => setDialog(null);

  const confirmDelete = (id: string) => {
    close();
    deleteJob(id);
  };

  const renderGroup = (title: string, items: T[]) =>
    items.length > 0 && (
      <section className="mb-4" aria-label={title}>
        <h2 className="h6 text-secondary">{title}</h2>
        <ul className="list-group">
          {items.map((job) => (
            <JobListItem
              key={job.id}
              job={job}
              noun={noun}
              summary={summary(job)}
              actions={actionsOf(job)}
              on={{
                info: () => setDialog({ kind: 'info', id: job.id }),
                edit: () => setDialog({ kind: 'edit', job }),
                stop: () => stopJob(job.id),
                delete: () => setDialog({ kind: 'delete', job }),
              }}
            />
          ))}
        </ul>
      </section>
    );

  const { autostarting, others } = splitByAutostart(jobs.data ?? []);

  return (
    <StreamPageShell
      title={texts.title}
      streamId={streamId}
      actions={
        <Button onClick={() => setDialog({ kind: 'create' })} disabled={jobs.isError}>
          <Icon svg={plusLgIcon} className="me-1" />
          {texts.add}
        </Button>
      }
    >
      {jobs.isPending ? (
        <Loading />
      ) : jobs.isError && !jobs.data ? (
        <p className="text-danger">
          {errorStatus(jobs.error) === 404 ? 'This stream does not exist.' : texts.loadFailed}
        </p>
      ) : autostarting.length + others.length === 0 ? (
        <p className="text-secondary">{texts.empty}</p>
      ) : (
        <>
          {renderGroup('Autostarting', autostarting)}
          {renderGroup(texts.others, others)}
        </>
      )}

      {renderForm({
        streamId,
        show: dialog?.kind === 'create' || dialog?.kind === 'edit',
        job: dialog?.kind === 'edit' ? dialog.job : undefined,
        onHide: close,
      })}
      {renderInfo({ id: dialog?.kind === 'info' ? dialog.id : null, onHide: close })}
      <ConfirmDialog
        show={dialog?.kind === 'delete'}
        message={texts.deleteQuestion}
        onConfirm={() => dialog?.kind === 'delete' && confirmDelete(dialog.job.id)}
        onCancel={close}
      />
    </StreamPageShell>
  );
}

/** /streams/<noun>/{id}: the page of the stream in the path, anew for each stream; without one, the stream list. */
export function StreamJobsScreen<T extends StreamJob>(props: StreamJobsScreenProps<T>) {
  const { id } = useParams();
  if (!id) return <Navigate to="/streams" replace />;
  return <StreamJobsPage key={id} streamId={id} {...props} />;
}
