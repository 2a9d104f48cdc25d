import { messageOr } from '@streamcloud/api-client';
import {
  type BodyOf,
  DEFAULT_HLS_LATENCY,
  type HlsLatency,
  OutputAccess,
  OutputFormat,
  StreamOutputCreate,
  streamRoutes,
} from '@streamcloud/contract';
import { type FormEvent, useEffect, useState } from 'react';
import Form from 'react-bootstrap/Form';
import Modal from 'react-bootstrap/Modal';
import { Options, SelectField, UrlField } from '@/components/ui/form-fields';
import { ModalActions } from '@/components/ui/modal-actions';
import { useNotify } from '@/components/ui/notifications';
import { useRouteMutation } from '@/data/route-mutation';
import { streamKeys } from '@/data/streams/keys';
import { OUTPUT_ACCESS_LABELS, STREAM_ERRORS } from '../utils/messages';
import { HlsOutputFields } from './hls-output-fields';

type OutputCreateBody = BodyOf<typeof streamRoutes.createOutput>;
type OutputFormatName = OutputCreateBody['format'];

/** Default RTMP; WebRTC when the viewer watches in a browser. */
export function defaultOutputFormat(browser: boolean): NonNullable<OutputFormatName> {
  return browser ? 'WebRTC' : 'RTMP';
}

export function toOutputBody(
  streamId: string,
  format: string,
  callbackUri: string,
  access?: string,
  hlsLatency?: string,
  dvrWindowMinutes = 0,
): OutputCreateBody {
  const uri = callbackUri.trim();
  return {
    streamId,
    format: format as OutputFormatName,
    ...(access ? { access: access as OutputAccess } : {}),
    // Only an HLS output has a packaging to choose.
    ...(hlsLatency && format === 'HLS' ? { hlsLatency: hlsLatency as HlsLatency } : {}),
    // Live rewind needs the node's packaging (Low latency).
    ...(dvrWindowMinutes > 0 && format === 'HLS' && hlsLatency === 'Low' ? { dvrWindowMinutes } : {}),
    ...(uri ? { callbackUri: uri } : {}),
  };
}

/**
 * Creates a viewer output (POST /outputs), with its access policy: by default the stream's (Private for a
 * Private stream's, else Public), or Signed.
 */
export function OutputModal({
  streamId,
  defaultAccess,
  show,
  onHide,
}: {
  streamId: string;
  defaultAccess: OutputAccess;
  show: boolean;
  onHide: () => void;
}) {
  const notify = useNotify();
  const create = useRouteMutation(streamRoutes.createOutput, {
    toRequest: (body: OutputCreateBody) => ({ body }),
    invalidates: (output) => [streamKeys.outputs(output.streamId)],
  });
  const [browser, setBrowser] = useState(false);
  const [format, setFormat] = useState<string>(defaultOutputFormat(false));
  const [access, setAccess] = useState<string>(defaultAccess);
  const [hlsLatency, setHlsLatency] = useState<HlsLatency>(DEFAULT_HLS_LATENCY);
  const [dvrWindow, setDvrWindow] = useState(0);
  const [callbackUri, setCallbackUri] = useState('');
  const [error, setError] = useState<string | undefined>();

  useEffect(() => {
    if (!show) return;
    setBrowser(false);
    setFormat(defaultOutputFormat(false));
    setAccess(defaultAccess);
    setHlsLatency(DEFAULT_HLS_LATENCY);
    setDvrWindow(0);
    setCallbackUri('');
    setError(undefined);
  }, [show, defaultAccess]);

  const onBrowser = (next: boolean) => {
    setBrowser(next);
    setFormat(defaultOutputFormat(next));
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const body = toOutputBody(streamId, format, callbackUri, access, hlsLatency, dvrWindow);
    const parsed = StreamOutputCreate.safeParse(body);
    if (!parsed.success) {
      setError(parsed.error.issues.find((issue) => issue.path[0] === 'callbackUri')?.message);
      return;
    }
    setError(undefined);
    create.mutate(body, {
      onSuccess: onHide,
      onError: (failure) => notify(messageOr(failure, STREAM_ERRORS.outputCreation)),
    });
  };

  return (
    <Modal show={show} onHide={onHide} aria-labelledby="output-modal-title">
      <Form noValidate onSubmit={onSubmit} aria-label="Create viewer">
        <Modal.Header closeButton closeLabel="Close">
          <Modal.Title id="output-modal-title">Create viewer</Modal.Title>
        </Modal.Header>
        <Modal.Body>
          <Form.Check
            type="switch"
            id="output-browser"
            label="Browser"
            className="mb-3"
            checked={browser}
            onChange={(event) => onBrowser(event.target.checked)}
          />
          <SelectField
            id="output-format"
            label="Format"
            value={format}
            onChange={(event) => setFormat(event.target.value)}
          >
            <Options values={OutputFormat.options} />
          </SelectField>
          {format === 'HLS' && (
            <HlsOutputFields
              id="output"
              latency={hlsLatency}
              dvrWindowMinutes={dvrWindow}
              onLatency={setHlsLatency}
              onDvrWindow={setDvrWindow}
            />
          )}
          <SelectField
            id="output-access"
            label="Access"
            help="Signed: only playback tokens signed with one of your account's playback signing keys play it."
            value={access}
            onChange={(event) => setAccess(event.target.value)}
          >
            <Options values={OutputAccess.options} label={(value) => OUTPUT_ACCESS_LABELS[value]} />
          </SelectField>
          <UrlField
            id="output-callback-uri"
            label="Callback URI"
            value={callbackUri}
            error={error}
            onChange={(event) => setCallbackUri(event.target.value)}
          />
        </Modal.Body>
        <ModalActions onCancel={onHide} submitLabel="Create" submitDisabled={create.isPending} />
      </Form>
    </Modal>
  );
}
