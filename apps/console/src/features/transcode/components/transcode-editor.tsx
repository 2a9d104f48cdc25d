import { errorStatus, isApiError } from '@streamcloud/api-client';
import {
  type StreamInput,
  type TranscodeConfig,
  type TranscodeConfigUpdateInput,
  transcodeRoutes,
} from '@streamcloud/contract';
import arrowLeftIcon from 'bootstrap-icons/icons/arrow-left.svg?raw';
import { useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import { Link } from 'react-router';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { Icon } from '@/components/ui/icon';
import { useNotify } from '@/components/ui/notifications';
import { PageShell } from '@/components/ui/page-shell';
import { useRouteMutation } from '@/data/route-mutation';
import { transcodeKeys } from '@/data/transcode/keys';
import { firstProblem, lockedReason, sameValue, toBody } from '../utils/config';
import { UNSAVED_CHANGES_QUESTION, useUnsavedChanges } from '../utils/use-unsaved-changes';
import { OverlayCard } from './overlay-card';
import { SettingsCard } from './settings-card';
import { TracksCard } from './tracks-card';

export const SAVED = 'Transcoding saved';

export interface TranscodeEditorProps {
  streamId: string;
  loaded: TranscodeConfig;
  stream: StreamInput | undefined;
}

/**
 * Holds the configuration locally until it is saved; Save is enabled only when it differs from the
 * loaded one (and keeps to the rules). Only a 400 with a message is shown on a failed save.
 */
export function TranscodeEditor({ streamId, loaded: initial, stream }: TranscodeEditorProps) {
  const [loaded, setLoaded] = useState(initial);
  const [config, setConfig] = useState(initial);
  const update = useRouteMutation(transcodeRoutes.update, {
    toRequest: ({ id, body }: { id: string; body: TranscodeConfigUpdateInput }) => ({ params: { id }, body }),
    sets: (_saved, { id }) => transcodeKeys.output(id),
  });
  const notify = useNotify();
  const dirty = !sameValue(config, loaded);
  const blocker = useUnsavedChanges(dirty);
  const locked = lockedReason(stream);
  const problem = firstProblem(config);
  const disabled = locked !== null || update.isPending;
  const back = `/streams/view/${streamId}`;

  const save = async () => {
    try {
      const saved = await update.mutateAsync({ id: streamId, body: toBody(config) });
      setLoaded(saved);
      setConfig(saved);
      notify(SAVED, 'success');
    } catch (error) {
      if (errorStatus(error) === 400 && isApiError(error) && error.serverMessage) notify(error.serverMessage);
      else console.error('Saving the transcode configuration failed', error);
    }
  };

  return (
    <PageShell
      title="Transcode editor"
      actions={
        <div className="d-flex flex-wrap gap-2">
          <Link className="btn btn-outline-secondary" to={back}>
            <Icon svg={arrowLeftIcon} className="me-1" />
            Back
          </Link>
          <Button disabled={!dirty || problem !== null || disabled} onClick={() => void save()}>
            {update.isPending ? 'Saving…' : 'Save'}
          </Button>
        </div>
      }
    >
      <p className="text-secondary">{stream ? (stream.caption ?? stream.id) : streamId}</p>
      {locked && <Alert variant="warning">{locked}</Alert>}
      {dirty && problem && <p className="text-danger">{problem}</p>}
      <SettingsCard config={config} disabled={disabled} onChange={setConfig} />
      <OverlayCard config={config} disabled={disabled} onChange={setConfig} />
      <TracksCard kind="video" config={config} disabled={disabled} onChange={setConfig} />
      <TracksCard kind="audio" config={config} disabled={disabled} onChange={setConfig} />
      <ConfirmDialog
        show={blocker.state === 'blocked'}
        title="Unsaved changes"
        message={UNSAVED_CHANGES_QUESTION}
        onConfirm={() => blocker.proceed?.()}
        onCancel={() => blocker.reset?.()}
      />
    </PageShell>
  );
}
