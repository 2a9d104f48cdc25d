import { messageOr } from '@streamcloud/api-client';
import {
  CAPTURE_PRESET_LABELS,
  CAPTURE_PRESETS,
  CAPTURE_SOURCES,
  CAPTURE_TRACKS_MAX,
  type CapturePreset,
  type CaptureSource,
  capturePreset,
  describeSelector,
  emptySelector,
  type RecordingFileFormat,
  type TrackSelector,
} from '@streamcloud/contract';
import pencilIcon from 'bootstrap-icons/icons/pencil.svg?raw';
import plusLgIcon from 'bootstrap-icons/icons/plus-lg.svg?raw';
import xLgIcon from 'bootstrap-icons/icons/x-lg.svg?raw';
import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { FieldBox } from '@/components/ui/field-box';
import { ChoiceField } from '@/components/ui/form-fields';
import { Icon } from '@/components/ui/icon';
import { useNotify } from '@/components/ui/notifications';
import { ToggleButtons } from '@/components/ui/toggle-buttons';
import { useFetchStreamTracks } from '@/data/recordings/tracks';
import { NO_CURRENT_TRACKS } from '../utils/messages';
import { TrackSelectorModal } from './track-selector-modal';

export interface CaptureEditorProps {
  streamId: string;
  source: CaptureSource;
  onSourceChange: (source: CaptureSource) => void;
  tracks: TrackSelector[];
  onTracksChange: (tracks: TrackSelector[]) => void;
  fileFormat: RecordingFileFormat;
  /** All on create, none on edit (section 4). */
  initialPreset: CapturePreset | null;
  error?: string | undefined;
}

type Editing = { index: number | null; selector: TrackSelector } | null;

/** Capture: the source, the presets and the track selectors (each edited in the track selector modal). */
export function CaptureEditor({
  streamId,
  source,
  onSourceChange,
  tracks,
  onTracksChange,
  fileFormat,
  initialPreset,
  error,
}: CaptureEditorProps) {
  const [preset, setPreset] = useState<CapturePreset | null>(initialPreset);
  const [editing, setEditing] = useState<Editing>(null);
  const [note, setNote] = useState<string | null>(null);
  const [loadingTracks, setLoadingTracks] = useState(false);
  const fetchTracks = useFetchStreamTracks();
  const notify = useNotify();

  const applyPreset = async (next: CapturePreset, from: CaptureSource = source) => {
    setNote(null);
    if (next !== 'CurrentTracks') {
      setPreset(next);
      onTracksChange(capturePreset(next));
      return;
    }
    setLoadingTracks(true);
    try {
      const current = await fetchTracks(streamId, from);
      if (current.length === 0) {
        setNote(NO_CURRENT_TRACKS);
        return;
      }
      setPreset(next);
      onTracksChange(capturePreset(next, current));
    } catch (cause) {
      notify(messageOr(cause, 'The current tracks could not be loaded'));
    } finally {
      setLoadingTracks(false);
    }
  };

  const changeSource = (next: CaptureSource) => {
    onSourceChange(next);
    if (preset === 'CurrentTracks') void applyPreset('CurrentTracks', next);
  };

  const save = (selector: TrackSelector) => {
    if (!editing) return;
    const next = [...tracks];
    if (editing.index === null) next.push(selector);
    else next[editing.index] = selector;
    onTracksChange(next);
    setPreset(null);
    setEditing(null);
  };

  const remove = (index: number) => {
    onTracksChange(tracks.filter((_, position) => position !== index));
    setPreset(null);
  };

  return (
    <FieldBox legend="Capture" aria-describedby={error ? 'capture-error' : undefined}>
      <ChoiceField id="capture-source" label="Source" values={CAPTURE_SOURCES} value={source} onChoose={changeSource} />
      <ToggleButtons
        legend="Preset"
        className="mb-3"
        values={CAPTURE_PRESETS}
        label={(value) => CAPTURE_PRESET_LABELS[value]}
        isPressed={(value) => preset === value}
        disabled={loadingTracks}
        onToggle={(value) => void applyPreset(value)}
      >
        {note && <div className="small text-secondary mt-1">{note}</div>}
      </ToggleButtons>
      <div className="d-flex justify-content-between align-items-center mb-1">
        <span className="form-label mb-0" id="capture-tracks-label">
          Tracks
        </span>
        <Button
          size="sm"
          variant="outline-secondary"
          disabled={tracks.length >= CAPTURE_TRACKS_MAX}
          onClick={() => setEditing({ index: null, selector: emptySelector('Video') })}
        >
          <Icon svg={plusLgIcon} className="me-1" />
          Add track
        </Button>
      </div>
      {tracks.length === 0 ? (
        <p className="text-secondary small mb-1">No tracks selected.</p>
      ) : (
        <ul className="list-group mb-1" aria-labelledby="capture-tracks-label">
          {tracks.map((selector, index) => (
            <li
              // Selectors have no identity of their own; the position is the key.
              // biome-ignore lint/suspicious/noArrayIndexKey: see above
              key={index}
              className="list-group-item d-flex justify-content-between align-items-center gap-2 py-1"
            >
              <span>
                <span className="badge text-bg-light border me-2">{selector.type}</span>
                {describeSelector(selector)}
              </span>
              <span className="d-flex gap-1">
                <Button
                  size="sm"
                  variant="link"
                  aria-label={`Edit track ${index + 1}`}
                  onClick={() => setEditing({ index, selector })}
                >
                  <Icon svg={pencilIcon} />
                </Button>
                <Button
                  size="sm"
                  variant="link"
                  className="text-danger"
                  aria-label={`Remove track ${index + 1}`}
                  onClick={() => remove(index)}
                >
                  <Icon svg={xLgIcon} />
                </Button>
              </span>
            </li>
          ))}
        </ul>
      )}
      {error && (
        <Form.Text id="capture-error" className="text-danger d-block">
          {error}
        </Form.Text>
      )}
      <TrackSelectorModal
        show={editing !== null}
        title={editing?.index === null ? 'Add track' : `Edit track ${(editing?.index ?? 0) + 1}`}
        selector={editing?.selector ?? emptySelector('Video')}
        fileFormat={fileFormat}
        onSave={save}
        onHide={() => setEditing(null)}
      />
    </FieldBox>
  );
}
