import {
  AUDIO_CODECS,
  type AudioTrack,
  EDITOR_H264_SPEED_PRESETS,
  EDITOR_VIDEO_CODECS,
  H264_SPEED_PRESETS,
  H264_TUNES,
  optionLabel,
  type VideoTrack,
} from '@streamcloud/contract';
import { type ReactNode, useEffect, useRef } from 'react';
import Modal from 'react-bootstrap/Modal';
import { type DefaultValues, type FieldValues, type Resolver, useForm, useWatch } from 'react-hook-form';
import { NumberField, Options, SelectField } from '@/components/ui/form-fields';
import { ModalActions } from '@/components/ui/modal-actions';
import { fieldsOf } from '@/lib/forms';
import {
  audioResolver,
  audioTrackOf,
  audioValues,
  keyIntervalDefault,
  videoResolver,
  videoTrackOf,
  videoValues,
} from '../utils/track-form';

interface TrackModalProps<T> {
  /** The track being edited or added; null closes the modal. */
  track: T | null;
  mode: 'add' | 'edit';
  onSave: (track: T) => void;
  onCancel: () => void;
}

type TrackKind = 'video' | 'audio';

/** A track's form, its rules run at once: a track that breaks one cannot be saved before it is touched. */
function useTrackForm<V extends FieldValues>(resolver: Resolver<V>, defaultValues: DefaultValues<V>) {
  const form = useForm<V>({ resolver, defaultValues, mode: 'onChange' });
  const { trigger } = form;
  useEffect(() => {
    void trigger();
  }, [trigger]);
  return { form, field: fieldsOf(form) };
}

interface TrackFormFrameProps {
  kind: TrackKind;
  mode: 'add' | 'edit';
  onSubmit: () => void;
  onCancel: () => void;
  canSave: boolean;
  children: ReactNode;
}

/** A track's form in its modal: the title, the fields, and Save while the rules hold. */
function TrackFormFrame({ kind, mode, onSubmit, onCancel, canSave, children }: TrackFormFrameProps) {
  const noun = `${kind} track`;
  return (
    <form noValidate onSubmit={onSubmit} aria-label={kind === 'video' ? 'Video track' : 'Audio track'}>
      <Modal.Header closeButton closeLabel="Close">
        <Modal.Title id={`${kind}-track-title`}>{mode === 'add' ? `Add ${noun}` : `Edit ${noun}`}</Modal.Title>
      </Modal.Header>
      <Modal.Body>{children}</Modal.Body>
      <ModalActions onCancel={onCancel} submitLabel="Save track" submitDisabled={!canSave} />
    </form>
  );
}

/** The modal of a track's form: shown while there is a track to edit. */
function TrackModalShell<T>({
  kind,
  track,
  onCancel,
  children,
}: {
  kind: TrackKind;
  track: T | null;
  onCancel: () => void;
  children: (track: T) => ReactNode;
}) {
  return (
    <Modal show={track !== null} onHide={onCancel} centered aria-labelledby={`${kind}-track-title`}>
      {track && children(track)}
    </Modal>
  );
}

function VideoTrackForm({ track, mode, onSave, onCancel }: TrackModalProps<VideoTrack> & { track: VideoTrack }) {
  const { form, field } = useTrackForm(videoResolver, videoValues(track));
  const { handleSubmit, control, setValue, getValues } = form;
  const type = useWatch({ control, name: 'type' });
  const previousType = useRef(type);

  useEffect(() => {
    const before = previousType.current;
    previousType.current = type;
    if (before !== type && (before === 'H264' || type === 'H264')) {
      setValue('keyInterval', keyIntervalDefault(type), { shouldValidate: true });
    }
  }, [type, setValue]);

  const submit = handleSubmit((values) => onSave(videoTrackOf(values) as VideoTrack));
  // VP9 is offered only for a track that already is VP9 (the editor offers H264 and VP8).
  const codecs: readonly VideoTrack['type'][] =
    track.type === 'VP9' ? [...EDITOR_VIDEO_CODECS, 'VP9'] : EDITOR_VIDEO_CODECS;
  const presets =
    track.type === 'H264' && !EDITOR_H264_SPEED_PRESETS.includes(track.settings.speedPreset)
      ? H264_SPEED_PRESETS.filter(
          (value) => EDITOR_H264_SPEED_PRESETS.includes(value) || value === track.settings.speedPreset,
        )
      : EDITOR_H264_SPEED_PRESETS;

  return (
    <TrackFormFrame kind="video" mode={mode} onSubmit={submit} onCancel={onCancel} canSave={form.formState.isValid}>
      <SelectField id="video-track-codec" label="Codec" defaultValue={getValues('type')} {...field('type')}>
        <Options values={codecs} />
      </SelectField>
      <div className="row row-cols-2">
        <NumberField id="video-track-width" label="Width" min={0} step={1} {...field('width', { deps: 'height' })} />
        <NumberField id="video-track-height" label="Height" min={0} step={1} {...field('height', { deps: 'width' })} />
      </div>
      <NumberField id="video-track-framerate" label="Frame rate" min={1} {...field('framerate')} />
      <NumberField id="video-track-bitrate" label="Bitrate (kbps)" min={100} step={1} {...field('bitrate')} />
      {type === 'H264' && (
        <>
          <SelectField
            id="video-track-speed-preset"
            label="Speed preset"
            defaultValue={getValues('speedPreset')}
            {...field('speedPreset')}
          >
            <Options values={presets} label={optionLabel} />
          </SelectField>
          <SelectField id="video-track-tune" label="Tune" defaultValue={getValues('tune')} {...field('tune')}>
            <Options values={H264_TUNES} label={optionLabel} />
          </SelectField>
        </>
      )}
      <NumberField
        id="video-track-key-interval"
        label={type === 'H264' ? 'Key interval' : 'Key distance'}
        min={0}
        step={1}
        {...field('keyInterval')}
      />
    </TrackFormFrame>
  );
}

function AudioTrackForm({ track, mode, onSave, onCancel }: TrackModalProps<AudioTrack> & { track: AudioTrack }) {
  const { form, field } = useTrackForm(audioResolver, audioValues(track));
  const { handleSubmit, getValues, trigger } = form;

  const submit = handleSubmit((values) => onSave(audioTrackOf(values) as AudioTrack));
  return (
    <TrackFormFrame kind="audio" mode={mode} onSubmit={submit} onCancel={onCancel} canSave={form.formState.isValid}>
      <SelectField
        id="audio-track-codec"
        label="Codec"
        defaultValue={getValues('type')}
        {...field('type', { onChange: () => void trigger() })}
      >
        <Options values={AUDIO_CODECS} />
      </SelectField>
      <NumberField id="audio-track-rate" label="Rate (Hz)" min={800} max={192000} step={1} {...field('rate')} />
      <NumberField id="audio-track-channels" label="Channels" min={1} max={2} step={1} {...field('channels')} />
      <NumberField id="audio-track-bitrate" label="Bitrate (kbps)" min={1} step={1} {...field('bitrate')} />
    </TrackFormFrame>
  );
}

/** Adds or edits one video track; the rules of section 5 show under the fields and keep Save disabled. */
export function VideoTrackModal(props: TrackModalProps<VideoTrack>) {
  return (
    <TrackModalShell kind="video" track={props.track} onCancel={props.onCancel}>
      {(track) => <VideoTrackForm {...props} track={track} />}
    </TrackModalShell>
  );
}

export function AudioTrackModal(props: TrackModalProps<AudioTrack>) {
  return (
    <TrackModalShell kind="audio" track={props.track} onCancel={props.onCancel}>
      {(track) => <AudioTrackForm {...props} track={track} />}
    </TrackModalShell>
  );
}
