import type { ClipPlayback } from '@streamcloud/contract';
import { useRef, useState } from 'react';
import Button from 'react-bootstrap/Button';
import { SeekBar } from '@/components/media/seek-bar';
import { CLIP_TEXTS } from '../utils/messages';

/**
 * A Ready clip's MP4 in the page's player (the control plane streams it by byte ranges), with the seek bar of the Past
 * broadcasts player: the clip's storyboard thumbnails (its VTT by the same link token) on its own timeline from 0.
 */
export function ClipPlayer({ links, onClose }: { links: ClipPlayback; onClose: () => void }) {
  const video = useRef<HTMLVideoElement>(null);
  // Stable: the seek bar reads the storyboard of what plays.
  const [source] = useState(() => () => ({ storyboardUrl: () => links.storyboardUrl }));
  const [failed, setFailed] = useState(false);
  return (
    <div className="mt-2">
      {/* biome-ignore lint/a11y/useMediaCaption: a clip of a broadcast has no caption track */}
      <video
        ref={video}
        src={links.url}
        controls
        autoPlay
        playsInline
        aria-label={CLIP_TEXTS.player}
        className="w-100 bg-black"
        onError={() => setFailed(true)}
      />
      <SeekBar video={video} playback={source} live={false} />
      {failed && (
        <p role="alert" className="text-danger small mb-0">
          {CLIP_TEXTS.playFailed}
        </p>
      )}
      <Button size="sm" variant="outline-secondary" className="mt-2" onClick={onClose}>
        {CLIP_TEXTS.closePlayer}
      </Button>
    </div>
  );
}
