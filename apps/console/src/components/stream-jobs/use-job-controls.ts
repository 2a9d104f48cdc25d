import { messageOr } from '@streamcloud/api-client';
import { useState } from 'react';
import { useNotify } from '@/components/ui/notifications';
import { type JobActions, jobActions, type StreamJob } from './stream-job';
import type { StreamJobsFeature } from './stream-jobs-feature';

/** Stop and delete with their failures told, and which of the two each job offers now. */
export function useJobControls<T extends StreamJob>({ runningState, texts, useStop, useDelete }: StreamJobsFeature<T>) {
  const stop = useStop();
  const remove = useDelete();
  const notify = useNotify();
  // Stop is offered once per job in this session (section 4).
  const [stopped, setStopped] = useState<ReadonlySet<string>>(new Set());

  const actionsOf = (job: StreamJob): JobActions =>
    jobActions(job, runningState, {
      stoppedInSession: stopped.has(job.id),
      stopping: stop.isPending && stop.variables === job.id,
      deleting: remove.isPending && remove.variables === job.id,
    });

  const stopJob = (id: string) =>
    stop.mutate(id, {
      onSuccess: () => setStopped((current) => new Set(current).add(id)),
      onError: (error) => notify(messageOr(error, texts.stopFailed)),
    });

  const deleteJob = (id: string) =>
    remove.mutate(id, { onError: (error) => notify(messageOr(error, texts.deleteFailed)) });

  return { actionsOf, stopJob, deleteJob };
}
