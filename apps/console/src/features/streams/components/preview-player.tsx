import type { StreamOutput } from '@streamcloud/contract';
import { type ReactNode, useEffect, useRef, useState } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { SeekBar } from '@/components/media/seek-bar';
import { beaconUrl, fetchViewerSession } from '@/data/streams/get-viewer-session';
import { useApi } from '@/lib/services-context';
import { createBeacon } from '@/media/beacon';
import { playHls } from '@/media/hls-playback';
import type { Playback, PlaybackStats, Rendition } from '@/media/playback';
import { errorKindOf, monitorPlayback, type PlaybackMonitor } from '@/media/playback-monitor';
import { playWhep } from '@/media/whep-playback';
import { playableOutputs } from '../utils/preview-outputs';
import { StatsOverlay } from './preview-stats';

function start(
  output: StreamOutput,
  token: string,
  video: HTMLVideoElement,
  signal: AbortSignal,
  onFailure: (reason: string) => void,
): Promise<Playback> {
  const url = output.connection?.signallingUri ?? output.connection?.uri ?? '';
  return output.format === 'WebRTC'
    ? playWhep(url, token, video, signal)
    : playHls(url, token, video, onFailure, { lowLatency: output.hlsLatency === 'Low' });
}

/**
 * The stream's live preview: one of its WebRTC or HLS outputs, played with the preview credential (a
 * preview session, not a viewer); muted autoplay, unmute, fullscreen, rendition choice, stats overlay.
 */
export function PreviewPlayer({
  outputs,
  token,
  webrtcProblem = null,
  extra,
}: {
  outputs: StreamOutput[];
  token: string;
  /** More controls beside the player's (the clips feature's "Create clip"), given the position being played. */
  extra?: (position: () => Date | null) => ReactNode;
  /** The node's reason why the stream cannot play over WebRTC now (its status message), if any. */
  webrtcProblem?: string | null;
}) {
  const playable = playableOutputs(outputs);
  const [chosenId, setChosenId] = useState<string | null>(null);
  const output = playable.find((candidate) => candidate.id === chosenId) ?? playable[0];
  const video = useRef<HTMLVideoElement>(null);
  const playback = useRef<Playback | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [muted, setMuted] = useState(true);
  const [showStats, setShowStats] = useState(false);
  const [stats, setStats] = useState<PlaybackStats | null>(null);
  const [renditions, setRenditions] = useState<Rendition[]>([]);
  // The credential is read when a playback starts; a renewed one does not restart what plays.
  const credential = useRef(token);
  credential.current = token;
  const api = useApi();
  // Stable: the seek bar reads the playback that runs now.
  const [currentPlayback] = useState(() => () => playback.current);

  const outputId = output?.id;
  // biome-ignore lint/correctness/useExhaustiveDependencies: a playback per output (its id), not per poll of the list
  useEffect(() => {
    const element = video.current;
    if (!output || !element) return;
    const cancelled = new AbortController();
    setError(null);
    setRenditions([]);
    const sourceKind = output.format === 'WebRTC' ? 'whep' : 'hls';
    // The preview's quality beacon, marked as a preview: its session is asked for beside the playback's start
    // (not before it, which would delay the first frame), timed from this start all the same.
    const origin = performance.now();
    let monitor: PlaybackMonitor | null = null;
    void fetchViewerSession(api, output.id).then((session) => {
      if (!session || cancelled.signal.aborted) return;
      const beacon = createBeacon({ url: beaconUrl(api, output.id), session, player: 'preview', origin });
      monitor = monitorPlayback(element, beacon);
      if (playback.current) monitor.started(playback.current);
    });
    const stopped = (reason: string) => {
      if (cancelled.signal.aborted) return;
      monitor?.failed(errorKindOf(sourceKind, reason), reason);
      setError(`The preview stopped: ${reason}`);
    };
    start(output, credential.current, element, cancelled.signal, stopped).then(
      (started) => {
        if (cancelled.signal.aborted) return started.close();
        playback.current = started;
        monitor?.started(started);
        void element.play().catch(() => {});
      },
      (failure: unknown) => {
        if (cancelled.signal.aborted) return;
        const reason = failure instanceof Error ? failure.message : String(failure);
        monitor?.failed(errorKindOf(sourceKind, reason), reason);
        setError(`The preview could not start: ${reason}`);
      },
    );
    return () => {
      cancelled.abort();
      monitor?.close();
      playback.current?.close();
      playback.current = null;
    };
  }, [outputId]);

  // Stats (and the renditions hls.js found) are read every second.
  useEffect(() => {
    const timer = setInterval(() => {
      const current = playback.current;
      if (!current) return;
      setRenditions((before) => {
        const now = current.renditions();
        return now.length === before.length ? before : now;
      });
      if (showStats) void current.stats().then(setStats);
    }, 1000);
    return () => clearInterval(timer);
  }, [showStats]);

  if (!output) return <p className="text-secondary mb-0">Add a WebRTC or HLS viewer to preview this stream.</p>;

  return (
    <div>
      <div className="d-flex flex-wrap gap-2 mb-2 align-items-center">
        <Form.Group controlId="preview-output" className="d-flex align-items-center gap-2">
          <Form.Label className="mb-0 small">Output</Form.Label>
          <Form.Select size="sm" value={output.id} onChange={(event) => setChosenId(event.target.value)}>
            {playable.map((candidate) => (
              <option key={candidate.id} value={candidate.id}>
                {`${candidate.format === 'WebRTC' ? 'WebRTC (WHEP)' : 'HLS'} · ${candidate.name}`}
              </option>
            ))}
          </Form.Select>
        </Form.Group>
        {renditions.length > 0 && (
          <Form.Group controlId="preview-rendition" className="d-flex align-items-center gap-2">
            <Form.Label className="mb-0 small">Rendition</Form.Label>
            <Form.Select
              size="sm"
              defaultValue="-1"
              onChange={(event) => playback.current?.pick(Number(event.target.value))}
            >
              <option value="-1">Auto</option>
              {renditions.map((rendition) => (
                <option key={rendition.index} value={rendition.index}>
                  {rendition.label}
                </option>
              ))}
            </Form.Select>
          </Form.Group>
        )}
      </div>
      <div className="position-relative bg-black">
        <video ref={video} aria-label="Stream preview" className="w-100" autoPlay muted={muted} playsInline />
        {showStats && <StatsOverlay stats={stats} format={output.format} />}
      </div>
      {output.format === 'HLS' && (output.dvrWindowMinutes ?? 0) > 0 && (
        <SeekBar key={output.id} video={video} playback={currentPlayback} />
      )}
      {error && (
        <p role="alert" className="text-danger small mt-2 mb-0">
          {error}
        </p>
      )}
      {webrtcProblem && output.format === 'WebRTC' && (
        <p role="alert" className="text-danger small mt-2 mb-0">
          {webrtcProblem}
        </p>
      )}
      <div className="d-flex gap-2 mt-2">
        <Button size="sm" variant="outline-secondary" onClick={() => setMuted(!muted)}>
          {muted ? 'Unmute' : 'Mute'}
        </Button>
        <Button size="sm" variant="outline-secondary" onClick={() => void video.current?.requestFullscreen?.()}>
          Fullscreen
        </Button>
        <Button size="sm" variant="outline-secondary" aria-pressed={showStats} onClick={() => setShowStats(!showStats)}>
          {showStats ? 'Hide stats' : 'Show stats'}
        </Button>
        {extra?.(() => playback.current?.programDate?.() ?? null)}
      </div>
    </div>
  );
}
