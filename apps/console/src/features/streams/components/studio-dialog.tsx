import type { StreamInput } from '@streamcloud/contract';
import { useEffect, useRef, useState } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Modal from 'react-bootstrap/Modal';
import { type Publication, type PublishState, publishWhip } from '@/media/whip-publish';
import { isPrivateAccess } from '../utils/stream-connection';
import { useMicrophoneLevel } from '../utils/studio-level';
import {
  BITRATES,
  type Devices,
  listDevices,
  type MediaChoice,
  mediaErrorMessage,
  openMedia,
  RESOLUTIONS,
  type Resolution,
  stopTracks,
} from '../utils/studio-media';

export interface StudioDialogProps {
  show: boolean;
  stream: Pick<StreamInput, 'status' | 'connection' | 'access' | 'accessToken'>;
  onHide: () => void;
  /** Whether the studio's push is on air (its connection up), as it changes. */
  onLive?: (live: boolean) => void;
}

const PUBLISH_TEXT: Record<PublishState, string> = {
  Connecting: 'Connecting',
  Live: 'Live',
  Reconnecting: 'Reconnecting',
  Failed: 'Connection lost',
};

/** The stream's WHIP ingest URL and, for a private stream, the token that goes with it. */
function ingestOf(stream: StudioDialogProps['stream']): { url: string | null; token: string | null } {
  const connection = stream.connection;
  const url = connection && 'signallingUri' in connection ? connection.signallingUri : null;
  return { url, token: isPrivateAccess(stream.access) ? stream.accessToken : null };
}

/** A camera or microphone picker; before the devices are listed, the one the browser opened by default. */
function DeviceSelect(props: {
  label: 'Camera' | 'Microphone';
  devices: MediaDeviceInfo[];
  value: string;
  onChange: (deviceId: string | null) => void;
}) {
  const { label, devices, value } = props;
  return (
    <Form.Group className="mb-2" controlId={`studio-${label.toLowerCase()}`}>
      <Form.Label>{label}</Form.Label>
      <Form.Select value={value} onChange={(event) => props.onChange(event.target.value || null)}>
        {devices.length === 0 && <option value={value}>Default {label.toLowerCase()}</option>}
        {devices.map((device, index) => (
          <option key={device.deviceId} value={device.deviceId}>
            {device.label || `${label} ${index + 1}`}
          </option>
        ))}
      </Form.Select>
    </Form.Group>
  );
}

export const SCREEN_ENDED = 'Screen sharing ended: the studio is back on the camera.';

const INITIAL: MediaChoice = { source: 'camera', cameraId: null, microphoneId: null, resolution: '720p' };

/**
 * The browser studio of a WebRTC stream: a camera (or a shared screen) and a microphone, a local preview,
 * the microphone's level, the picture size and bitrate, published over WHIP to the stream's ingest URL.
 * The devices are opened while the studio is shown and released when it closes or the user stops.
 */
export function StudioDialog({ show, stream, onHide, onLive }: StudioDialogProps) {
  const [choice, setChoice] = useState<MediaChoice>(INITIAL);
  // Each attempt opens the devices anew (Try again); 0 after Stop: off until the user asks again.
  const [attempt, setAttempt] = useState(1);
  const [media, setMedia] = useState<MediaStream | null>(null);
  const [devices, setDevices] = useState<Devices>({ cameras: [], microphones: [] });
  const [mediaError, setMediaError] = useState<string | null>(null);
  const [bitrate, setBitrate] = useState<number>(BITRATES[1].value);
  const [state, setState] = useState<PublishState | null>(null);
  const [publishError, setPublishError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const publication = useRef<Publication | null>(null);
  // What the devices give now: a publication that was still connecting when they changed catches up with it.
  const current = useRef<MediaStream | null>(null);
  current.current = media;
  const preview = useRef<HTMLVideoElement>(null);
  const level = useMicrophoneLevel(media);
  const ingest = ingestOf(stream);

  useEffect(() => {
    if (!show || attempt === 0) return;
    let cancelled = false;
    let opened: MediaStream | null = null;
    setMediaError(null);
    openMedia(choice).then(
      (media) => {
        opened = media;
        if (cancelled) return stopTracks(media);
        // The browser's own "Stop sharing" ends the screen's track: back to the camera, saying so.
        media.getVideoTracks()[0]?.addEventListener('ended', () => {
          if (cancelled || choice.source !== 'screen') return;
          setNotice(SCREEN_ENDED);
          setChoice((now) => ({ ...now, source: 'camera' }));
        });
        setMedia(media);
        void listDevices().then((found) => !cancelled && setDevices(found));
      },
      (error: unknown) => {
        if (cancelled) return;
        setMedia(null);
        setMediaError(mediaErrorMessage(error, choice.source));
      },
    );
    return () => {
      cancelled = true;
      stopTracks(opened);
    };
  }, [show, attempt, choice]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: replaceSent reads a ref and sets state, nothing that changes
  useEffect(() => {
    if (preview.current) preview.current.srcObject = media;
    // While live, new devices replace the tracks being sent (no renegotiation, the session goes on).
    if (media) replaceSent(media);
  }, [media]);

  // Closing the studio (or leaving the page) ends a publication.
  useEffect(() => {
    if (show) return;
    void publication.current?.stop();
    publication.current = null;
    setState(null);
    setMedia(null);
    setAttempt(1);
  }, [show]);
  useEffect(() => () => void publication.current?.stop(), []);

  const replaceSent = (next: MediaStream) => {
    publication.current
      ?.replaceTracks(next)
      .catch((error: unknown) => setPublishError(`The devices could not be switched: ${String(error)}`));
  };

  const choose = (change: Partial<MediaChoice>) => {
    setNotice(null);
    setAttempt((current) => Math.max(current, 1));
    setChoice((current) => ({ ...current, ...change }));
  };

  const goLive = async () => {
    if (!media || !ingest.url) return;
    setPublishError(null);
    try {
      publication.current = await publishWhip(ingest.url, ingest.token, media, bitrate, setState);
      if (current.current && current.current !== media) replaceSent(current.current);
    } catch (error) {
      setState(null);
      setPublishError(`Going live failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  };

  const stop = async () => {
    const ending = publication.current;
    publication.current = null;
    setState(null);
    stopTracks(media);
    setMedia(null);
    setAttempt(0);
    await ending?.stop();
  };

  const changeBitrate = (value: number) => {
    setBitrate(value);
    publication.current
      ?.setBitrate(value)
      .catch((error: unknown) => setPublishError(`The bitrate could not be changed: ${String(error)}`));
  };

  const publishing = state !== null;
  const live = state === 'Live';
  // biome-ignore lint/correctness/useExhaustiveDependencies: told when it changes, not when the parent re-renders
  useEffect(() => onLive?.(live), [live]);
  const videoTrack = media?.getVideoTracks()[0];
  const audioTrack = media?.getAudioTracks()[0];
  const cameraId = choice.cameraId ?? videoTrack?.getSettings().deviceId ?? '';
  const microphoneId = choice.microphoneId ?? audioTrack?.getSettings().deviceId ?? '';
  const error = mediaError ?? publishError;

  return (
    <Modal show={show} onHide={onHide} size="lg" aria-labelledby="studio-title">
      <Modal.Header closeButton closeLabel="Close">
        <Modal.Title id="studio-title">Studio</Modal.Title>
      </Modal.Header>
      <Modal.Body>
        {error && (
          // Bootstrap's markup, not its Alert component: that would split a shared chunk the first load names.
          <div className="alert alert-danger" role="alert">
            {error}
          </div>
        )}
        {notice && (
          <div className="alert alert-info" role="status">
            {notice}
          </div>
        )}
        {!ingest.url && (
          <div className="alert alert-warning" role="alert">
            The stream has no ingest URL yet: it is waiting for a media node.
          </div>
        )}
        <div className="d-flex flex-wrap gap-3 mb-3">
          <div role="status" aria-label="Publishing status">
            Studio: <strong>{state ? PUBLISH_TEXT[state] : 'Off air'}</strong>
          </div>
          <div role="status" aria-label="Stream status">
            Stream: <strong>{stream.status}</strong>
          </div>
        </div>
        <div className="row g-3">
          <div className="col-md-7">
            <video
              ref={preview}
              aria-label="Local preview"
              className="w-100 bg-dark rounded"
              style={{ aspectRatio: '16 / 9' }}
              autoPlay
              muted
              playsInline
            />
            <label className="d-block small mt-1">
              Microphone level
              <meter className="w-100 d-block" min={0} max={1} low={0.6} high={0.9} optimum={0.3} value={level} />
            </label>
          </div>
          <div className="col-md-5">
            {choice.source === 'camera' ? (
              <DeviceSelect
                label="Camera"
                devices={devices.cameras}
                value={cameraId}
                onChange={(id) => choose({ cameraId: id })}
              />
            ) : (
              <p className="mb-2">Sharing a screen.</p>
            )}
            <Button
              variant="outline-secondary"
              size="sm"
              className="mb-2"
              onClick={() => choose({ source: choice.source === 'camera' ? 'screen' : 'camera' })}
            >
              {choice.source === 'camera' ? 'Share screen' : 'Use camera'}
            </Button>
            <DeviceSelect
              label="Microphone"
              devices={devices.microphones}
              value={microphoneId}
              onChange={(id) => choose({ microphoneId: id })}
            />
            <Form.Group className="mb-2" controlId="studio-resolution">
              <Form.Label>Resolution</Form.Label>
              <Form.Select
                value={choice.resolution}
                onChange={(event) => choose({ resolution: event.target.value as Resolution })}
              >
                {RESOLUTIONS.map((resolution) => (
                  <option key={resolution.label}>{resolution.label}</option>
                ))}
              </Form.Select>
            </Form.Group>
            <Form.Group className="mb-3" controlId="studio-bitrate">
              <Form.Label>Video bitrate</Form.Label>
              <Form.Select value={bitrate} onChange={(event) => changeBitrate(Number(event.target.value))}>
                {BITRATES.map((option) => (
                  <option key={option.value} value={option.value}>
                    {option.label}
                  </option>
                ))}
              </Form.Select>
            </Form.Group>
            {publishing ? (
              <Button variant="danger" onClick={() => void stop()}>
                Stop
              </Button>
            ) : attempt === 0 || mediaError ? (
              <Button variant="outline-secondary" onClick={() => setAttempt((current) => current + 1)}>
                {attempt === 0 ? 'Turn on camera' : 'Try again'}
              </Button>
            ) : (
              <Button variant="success" disabled={!media || !ingest.url} onClick={() => void goLive()}>
                Go live
              </Button>
            )}
          </div>
        </div>
      </Modal.Body>
    </Modal>
  );
}
