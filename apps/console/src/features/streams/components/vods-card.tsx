import { messageOr } from '@streamcloud/api-client';
import { VOD_MESSAGES, type Vod } from '@streamcloud/contract';
import { type ReactNode, useEffect, useRef, useState } from 'react';
import Badge from 'react-bootstrap/Badge';
import Button from 'react-bootstrap/Button';
import { SeekBar } from '@/components/media/seek-bar';
import { Loading } from '@/components/ui/loading';
import { useOutputs } from '@/data/streams/outputs';
import { usePreviewCredential } from '@/data/streams/preview';
import { useStreamVods } from '@/data/vods/list';
import { formatDateTime, formatDuration } from '@/lib/format';
import { playHls } from '@/media/hls-playback';
import type { Playback } from '@/media/playback';
import { VOD_TEXTS } from '../utils/messages';
import { DashboardCard } from './dashboard-card';

/**
 * The stream dashboard's Past broadcasts card (issue 35): the VODs of the stream's ended sessions with their times,
 * each Available one watchable in the console's HLS player (with the preview credential: not a billed viewer).
 * Without a Low latency output with a rewind window nothing is kept, and the card says how to have it.
 */
export function VodsCard({ streamId }: { streamId: string }) {
  const vods = useStreamVods(streamId);
  // The dashboard's own outputs read (the viewers card's), all pages loaded before saying there is no DVR window.
  const outputs = useOutputs(streamId);
  const [watching, setWatching] = useState<string | null>(null);
  const loaded = outputs.data?.pages.flatMap((page) => page.items) ?? [];
  const withDvr = loaded.some(
    (output) => output.format === 'HLS' && output.hlsLatency === 'Low' && (output.dvrWindowMinutes ?? 0) > 0,
  );
  const noDvr = outputs.isSuccess && !outputs.hasNextPage && !withDvr;

  let body: ReactNode;
  if (vods.isPending) body = <Loading />;
  else if (vods.isError)
    body = (
      <p role="alert" className="text-danger mb-0">
        {messageOr(vods.error, VOD_TEXTS.loadFailed)}
      </p>
    );
  else
    body = (
      <>
        {noDvr && <p className="text-secondary">{VOD_MESSAGES.noDvr}</p>}
        {vods.data.length === 0 ? (
          <p className="text-secondary mb-0">{VOD_TEXTS.none}</p>
        ) : (
          <ul className="list-unstyled mb-0" aria-label={VOD_TEXTS.title}>
            {vods.data.map((vod) => (
              <VodItem
                key={vod.id}
                vod={vod}
                streamId={streamId}
                watching={watching === vod.id}
                onWatch={(on) => setWatching(on ? vod.id : null)}
              />
            ))}
          </ul>
        )}
      </>
    );
  return <DashboardCard title={VOD_TEXTS.title}>{body}</DashboardCard>;
}

function VodItem({
  vod,
  streamId,
  watching,
  onWatch,
}: {
  vod: Vod;
  streamId: string;
  watching: boolean;
  onWatch: (on: boolean) => void;
}) {
  const label = `${VOD_TEXTS.title}: ${formatDateTime(vod.startedAt)}`;
  return (
    <li aria-label={label} className="py-1">
      <div className="d-flex flex-wrap gap-3 align-items-center">
        <Badge bg={vod.state === 'Available' ? 'success' : 'secondary'}>{vod.state}</Badge>
        <span>
          <span className="small text-secondary">{VOD_TEXTS.started}</span> {formatDateTime(vod.startedAt)}
        </span>
        <span>
          <span className="small text-secondary">{VOD_TEXTS.ended}</span> {formatDateTime(vod.endedAt)}
        </span>
        <span>
          <span className="small text-secondary">{VOD_TEXTS.duration}</span> {formatDuration(vod.duration)}
        </span>
        {vod.playlistUri && (
          <Button size="sm" variant="outline-primary" className="ms-auto" onClick={() => onWatch(!watching)}>
            {watching ? VOD_TEXTS.closePlayer : VOD_TEXTS.watch}
          </Button>
        )}
      </div>
      {vod.state === 'Evicted' && <p className="small text-secondary mb-0">{VOD_MESSAGES.evicted}</p>}
      {vod.recordings.length > 0 && (
        <p className="small mb-0">
          {VOD_TEXTS.recorded} {vod.recordings.map((recording) => recording.fileName).join(', ')}
        </p>
      )}
      {watching && vod.playlistUri && <VodPlayer uri={vod.playlistUri} streamId={streamId} />}
    </li>
  );
}

/** The VOD in the console's HLS player, admitted with the stream's preview credential. */
function VodPlayer({ uri, streamId }: { uri: string; streamId: string }) {
  const credential = usePreviewCredential(streamId);
  const video = useRef<HTMLVideoElement>(null);
  const playback = useRef<Playback | null>(null);
  // Stable: the seek bar reads the playback that runs now.
  const [currentPlayback] = useState(() => () => playback.current);
  const [failure, setFailure] = useState<string | null>(null);
  // Read when playback starts: a renewed credential does not restart what plays (the session goes on with its own).
  const token = useRef<string | undefined>(undefined);
  token.current = credential.data?.token;
  const ready = credential.data !== undefined;

  useEffect(() => {
    const element = video.current;
    const current = token.current;
    if (!ready || !current || !element) return;
    let closed = false;
    let close = () => {};
    playHls(uri, current, element, (reason) => setFailure(reason)).then(
      (started) => {
        if (closed) return started.close();
        playback.current = started;
        close = () => started.close();
      },
      (error: unknown) => setFailure(messageOr(error, VOD_TEXTS.playFailed)),
    );
    return () => {
      closed = true;
      playback.current = null;
      close();
    };
  }, [uri, ready]);

  const problem = failure ?? (credential.isError ? messageOr(credential.error, VOD_TEXTS.playFailed) : null);
  return (
    <div className="mt-2">
      {/* Plays at once: Watch asked for it (a click, so the browser lets it play with sound). */}
      {/* biome-ignore lint/a11y/useMediaCaption: a broadcast's recording has no caption track */}
      <video ref={video} controls autoPlay playsInline aria-label={VOD_TEXTS.player} className="w-100 bg-black" />
      {/* The storyboard's thumbnails of the position pointed at (the browser's own controls show none). */}
      <SeekBar key={uri} video={video} playback={currentPlayback} live={false} />
      {problem && (
        <p role="alert" className="text-danger small mb-0">
          {problem}
        </p>
      )}
    </div>
  );
}
