import {
  allowedCodecs,
  BITRATE_CONDITIONS,
  type BitrateCondition,
  CAPTURE_AUDIO_CODECS,
  CAPTURE_VIDEO_CODECS,
  describeSelector,
  RESOLUTION_CONDITIONS,
  type RecordingFileFormat,
  type ResolutionCondition,
  TRACK_TYPES,
  type TrackCodec,
  type TrackSelector,
  TrackSelectorInput,
  type TrackType,
} from '@streamcloud/contract';
import { useState } from 'react';
import Modal from 'react-bootstrap/Modal';
import { ChoiceField, NumberField } from '@/components/ui/form-fields';
import { ModalActions } from '@/components/ui/modal-actions';

/** What the selector's inputs hold: text for numbers, '' for "not set". */
interface Draft {
  type: TrackType;
  idx: string;
  codec: TrackCodec | '';
  resolutionCondition: ResolutionCondition | '';
  width: string;
  height: string;
  approximate: string;
  bitrateCondition: BitrateCondition | '';
  bitrate: string;
}

const text = (value: number | null | undefined) => (value === null || value === undefined ? '' : String(value));
const numberOrNull = (value: string) => (value.trim() === '' ? null : Number(value));

function toDraft(selector: TrackSelector): Draft {
  return {
    type: selector.type,
    idx: text(selector.idx),
    codec: selector.codec ?? '',
    resolutionCondition: selector.resolution?.condition ?? '',
    width: text(selector.resolution?.width),
    height: text(selector.resolution?.height),
    approximate: text(selector.resolution?.approximate),
    bitrateCondition: selector.bitrate?.condition ?? '',
    bitrate: text(selector.bitrate?.value),
  };
}

/** A selector with no condition sends resolution or bitrate as null (section 5). */
function fromDraft(draft: Draft) {
  return {
    type: draft.type,
    idx: numberOrNull(draft.idx),
    codec: draft.codec === '' ? null : draft.codec,
    resolution:
      draft.type === 'Video' && draft.resolutionCondition !== ''
        ? {
            condition: draft.resolutionCondition,
            width: numberOrNull(draft.width),
            height: numberOrNull(draft.height),
            approximate: draft.resolutionCondition === 'Approximate' ? numberOrNull(draft.approximate) : null,
          }
        : null,
    bitrate:
      draft.bitrateCondition !== '' ? { condition: draft.bitrateCondition, value: numberOrNull(draft.bitrate) } : null,
  };
}

const CODECS_OF: Record<TrackType, readonly TrackCodec[]> = {
  Video: CAPTURE_VIDEO_CODECS,
  Audio: CAPTURE_AUDIO_CODECS,
};

export interface TrackSelectorModalProps {
  show: boolean;
  title: string;
  selector: TrackSelector;
  fileFormat: RecordingFileFormat;
  onSave: (selector: TrackSelector) => void;
  onHide: () => void;
}

/** Edits one track selector; Save is enabled only while it is valid (section 5). */
export function TrackSelectorModal({ show, title, selector, fileFormat, onSave, onHide }: TrackSelectorModalProps) {
  return (
    <Modal show={show} onHide={onHide} centered aria-labelledby="track-selector-title">
      {show && (
        <SelectorEditor title={title} selector={selector} fileFormat={fileFormat} onSave={onSave} onHide={onHide} />
      )}
    </Modal>
  );
}

function SelectorEditor({ title, selector, fileFormat, onSave, onHide }: Omit<TrackSelectorModalProps, 'show'>) {
  const [draft, setDraft] = useState<Draft>(() => toDraft(selector));
  const change = (changes: Partial<Draft>) => setDraft((current) => ({ ...current, ...changes }));
  const parsed = TrackSelectorInput.safeParse(fromDraft(draft));
  const errors = new Map<string, string>();
  for (const issue of parsed.error?.issues ?? []) {
    const key = issue.path.join('.');
    if (!errors.has(key)) errors.set(key, issue.message);
  }
  const error = (...keys: string[]) => keys.map((key) => errors.get(key)).find(Boolean);
  const allowed = allowedCodecs(fileFormat);
  const codecs = CODECS_OF[draft.type].filter((codec) => allowed.includes(codec));
  const video = draft.type === 'Video';
  const needsSize = draft.resolutionCondition === 'Exact' || draft.resolutionCondition === 'Approximate';

  const changeType = (type: TrackType) =>
    change({
      type,
      codec: draft.codec !== '' && CODECS_OF[type].includes(draft.codec) ? draft.codec : '',
      ...(type === 'Audio' ? { resolutionCondition: '', width: '', height: '', approximate: '' } : {}),
    });

  return (
    <form
      noValidate
      aria-label="Track selector"
      onSubmit={(event) => {
        event.preventDefault();
        // The modal is portalled out of the recording form, but React events still bubble to it.
        event.stopPropagation();
        if (parsed.success) onSave(parsed.data);
      }}
    >
      <Modal.Header closeButton closeLabel="Close">
        <Modal.Title id="track-selector-title">{title}</Modal.Title>
      </Modal.Header>
      <Modal.Body>
        <ChoiceField id="track-type" label="Type" values={TRACK_TYPES} value={draft.type} onChoose={changeType} />
        <NumberField
          id="track-idx"
          label="Track index"
          min={0}
          step={1}
          value={draft.idx}
          error={error('idx')}
          onChange={(event) => change({ idx: event.target.value })}
        />
        <ChoiceField
          id="track-codec"
          label="Codec"
          none="Any"
          values={codecs}
          value={draft.codec}
          error={error('codec')}
          onChoose={(codec) => change({ codec })}
        />
        {video && (
          <fieldset className="border rounded p-2 mb-3">
            <legend className="fs-6 float-none w-auto px-1 mb-0">Resolution</legend>
            <ChoiceField
              id="track-resolution-condition"
              label="Resolution condition"
              none="None"
              values={RESOLUTION_CONDITIONS}
              value={draft.resolutionCondition}
              onChoose={(resolutionCondition) => change({ resolutionCondition })}
            />
            {draft.resolutionCondition !== '' && (
              <div className="row row-cols-2">
                <NumberField
                  id="track-width"
                  label={needsSize ? 'Width' : 'Width (optional)'}
                  min={0}
                  value={draft.width}
                  error={error('resolution.width')}
                  onChange={(event) => change({ width: event.target.value })}
                />
                <NumberField
                  id="track-height"
                  label={needsSize ? 'Height' : 'Height (optional)'}
                  min={0}
                  value={draft.height}
                  error={error('resolution.height')}
                  onChange={(event) => change({ height: event.target.value })}
                />
              </div>
            )}
            {draft.resolutionCondition === 'Approximate' && (
              <NumberField
                id="track-approximate"
                label="Tolerance (%)"
                min={0}
                max={100}
                value={draft.approximate}
                error={error('resolution.approximate')}
                onChange={(event) => change({ approximate: event.target.value })}
              />
            )}
          </fieldset>
        )}
        <fieldset className="border rounded p-2 mb-3">
          <legend className="fs-6 float-none w-auto px-1 mb-0">Bitrate</legend>
          <ChoiceField
            id="track-bitrate-condition"
            label="Bitrate condition"
            none="None"
            values={BITRATE_CONDITIONS}
            value={draft.bitrateCondition}
            onChoose={(bitrateCondition) => change({ bitrateCondition })}
          />
          {draft.bitrateCondition !== '' && (
            <NumberField
              id="track-bitrate"
              label="Bitrate (kbps)"
              min={0}
              value={draft.bitrate}
              error={error('bitrate.value')}
              onChange={(event) => change({ bitrate: event.target.value })}
            />
          )}
        </fieldset>
        <p className="mb-0">
          Selects:{' '}
          <strong data-testid="selector-description">{describeSelector(parsed.data ?? selectorShape(draft))}</strong>
        </p>
      </Modal.Body>
      <ModalActions onCancel={onHide} submitLabel="Save track" submitDisabled={!parsed.success} />
    </form>
  );
}

/** The draft as a selector for its description, even while a number is not valid yet. */
function selectorShape(draft: Draft): TrackSelector {
  const shape = fromDraft(draft);
  const safe = (value: number | null) => (value === null || Number.isNaN(value) ? null : value);
  return {
    type: shape.type,
    idx: safe(shape.idx),
    codec: shape.codec,
    resolution: shape.resolution
      ? {
          ...shape.resolution,
          width: safe(shape.resolution.width),
          height: safe(shape.resolution.height),
          approximate: safe(shape.resolution.approximate),
        }
      : null,
    bitrate: shape.bitrate ? { ...shape.bitrate, value: safe(shape.bitrate.value) } : null,
  };
}
