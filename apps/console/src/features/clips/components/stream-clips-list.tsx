import { messageOr } from '@streamcloud/api-client';
import { type Clip, type ClipPlayback, clipRoutes } from '@streamcloud/contract';
import { useState } from 'react';
import Badge from 'react-bootstrap/Badge';
import Button from 'react-bootstrap/Button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { Loading } from '@/components/ui/loading';
import { useNotify } from '@/components/ui/notifications';
import { clipKeys } from '@/data/clips/keys';
import { useStreamClips } from '@/data/clips/list';
import { useClipPlayback } from '@/data/clips/playback';
import { useRouteMutation } from '@/data/route-mutation';
import { CLIP_STATE_VARIANTS, formatDuration } from '../utils/clip-values';
import { CLIP_TEXTS } from '../utils/messages';
import { ClipPlayer } from './clip-player';

/** The stream dashboard's Clips card: each clip's state, caption, length, and Play / Download / Delete. */
export function StreamClipsList({ streamId }: { streamId: string }) {
  const clips = useStreamClips(streamId);
  // Only Ready or in Error; the clip's file goes too.
  const remove = useRouteMutation(clipRoutes.delete, {
    toRequest: (clip: Clip) => ({ params: { id: clip.id } }),
    invalidates: (_, clip) => [clipKeys.stream(clip.streamId), clipKeys.storageUse()],
  });
  const links = useClipPlayback();
  const notify = useNotify();
  const [deleting, setDeleting] = useState<Clip | null>(null);
  const [playing, setPlaying] = useState<{ id: string; links: ClipPlayback } | null>(null);

  if (clips.isPending) return <Loading />;
  if (clips.isError) return <p className="text-danger mb-0">{messageOr(clips.error, 'The clips could not be read')}</p>;
  if (clips.data.length === 0) return <p className="text-secondary mb-0">{CLIP_TEXTS.none}</p>;

  // Play and Download each ask for fresh links (they expire), then use them.
  const withLinks = (use: (clip: Clip, playback: ClipPlayback) => void, failure: string) => (clip: Clip) =>
    links.mutate(clip.id, {
      onSuccess: (playback) => use(clip, playback),
      onError: (error) => notify(messageOr(error, failure), 'danger'),
    });
  const actions = [
    {
      name: 'Play',
      run: withLinks((clip, playback) => setPlaying({ id: clip.id, links: playback }), CLIP_TEXTS.playFailed),
    },
    {
      name: 'Download',
      run: withLinks(
        (_, playback) => void window.open(playback.downloadUrl, '_blank', 'noopener'),
        CLIP_TEXTS.downloadFailed,
      ),
    },
  ];
  const confirmDelete = () => {
    if (!deleting) return;
    remove.mutate(deleting, { onError: (error) => notify(messageOr(error, CLIP_TEXTS.deleteFailed), 'danger') });
    setDeleting(null);
  };

  return (
    <>
      <ul className="list-unstyled mb-0" aria-label="Clips">
        {clips.data.map((clip) => {
          const caption = clip.caption || CLIP_TEXTS.noCaption;
          const busy = clip.state === 'Pending' || clip.state === 'Processing';
          return (
            <li key={clip.id} aria-label={caption} className="d-flex flex-wrap gap-2 align-items-center py-1">
              <Badge bg={CLIP_STATE_VARIANTS[clip.state]}>{clip.state}</Badge>
              <span className="text-truncate">{caption}</span>
              <span className="text-secondary">{formatDuration(clip.duration)}</span>
              {clip.state === 'Error' && clip.message && <span className="text-danger small">{clip.message}</span>}
              <span className="ms-auto d-flex gap-2">
                {actions.map((action) => (
                  <Button
                    key={action.name}
                    size="sm"
                    variant="outline-primary"
                    disabled={clip.state !== 'Ready'}
                    onClick={() => action.run(clip)}
                  >
                    {action.name}
                  </Button>
                ))}
                <Button size="sm" variant="outline-danger" disabled={busy} onClick={() => setDeleting(clip)}>
                  Delete
                </Button>
              </span>
              {playing?.id === clip.id && (
                <div className="w-100">
                  <ClipPlayer key={playing.links.url} links={playing.links} onClose={() => setPlaying(null)} />
                </div>
              )}
            </li>
          );
        })}
      </ul>
      <ConfirmDialog
        show={deleting !== null}
        message={CLIP_TEXTS.deleteQuestion}
        onConfirm={confirmDelete}
        onCancel={() => setDeleting(null)}
      />
    </>
  );
}
