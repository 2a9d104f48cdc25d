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
import { useEffect, useRef } from 'react';
import Modal from 'react-bootstrap/Modal';
import { useForm, useWatch } from 'react-hook-form';
import { NumberField, Options, SelectField } from '@/components/ui/form-fields';
import { ModalActions } from '@/components/ui/modal-actions';
import { fieldsOf } from '@/lib/forms';
import {
  type AudioTrackValues,
  audioResolver,
  audioTrackOf,
  audioValues,
  keyIntervalDefault,
  type VideoTrackValues,
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

function Footer({ onCancel, canSave }: { onCancel: () => void; canSave: boolean }) {
  return <ModalActions onCancel={onCancel} submitLabel="Save track" submitDisabled={!canSave} />;
}

function VideoTrackForm({ track, mode, onSave, onCancel }: TrackModalProps<VideoTrack> & { track: VideoTrack }) {
  const form = useForm<VideoTrackValues>({
    resolver: videoResolver,
    defaultValues: videoValues(track),
    mode: 'onChange',
  });
  const { handleSubmit, control, setValue, getValues, trigger } = form;
  const field = fieldsOf(form);
  const type = useWatch({ control, name: 'type' });
  const previousType = useRef(type);

  // Run the rules at once, so a track that breaks one cannot be saved before it is touched.
  useEffect(() => {
    void trigger();
  }, [trigger]);

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
    <form noValidate onSubmit={submit} aria-label="Video track">
      <Modal.Header closeButton closeLabel="Close">
        <Modal.Title id="video-track-title">{mode === 'add' ? 'Add video track' : 'Edit video track'}</Modal.Title>
      </Modal.Header>
      <Modal.Body>
        <SelectField id="video-track-codec" label="Codec" defaultValue={getValues('type')} {...field('type')}>
          <Options values={codecs} />
        </SelectField>
        <div className="row">
          <div className="col">
            <NumberField
              id="video-track-width"
              label="Width"
              min={0}
              step={1}
              {...field('width', { deps: 'height' })}
            />
          </div>
          <div className="col">
            <NumberField
              id="video-track-height"
              label="Height"
              min={0}
              step={1}
              {...field('height', { deps: 'width' })}
            />
          </div>
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
      </Modal.Body>
      <Footer onCancel={onCancel} canSave={form.formState.isValid} />
    </form>
  );
}

function AudioTrackForm({ track, mode, onSave, onCancel }: TrackModalProps<AudioTrack> & { track: AudioTrack }) {
  const form = useForm<AudioTrackValues>({
    resolver: audioResolver,
    defaultValues: audioValues(track),
    mode: 'onChange',
  });
  const { handleSubmit, getValues, trigger } = form;
  const field = fieldsOf(form);

  useEffect(() => {
    void trigger();
  }, [trigger]);

  const submit = handleSubmit((values) => onSave(audioTrackOf(values) as AudioTrack));
  return (
    <form noValidate onSubmit={submit} aria-label="Audio track">
      <Modal.Header closeButton closeLabel="Close">
        <Modal.Title id="audio-track-title">{mode === 'add' ? 'Add audio track' : 'Edit audio track'}</Modal.Title>
      </Modal.Header>
      <Modal.Body>
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
      </Modal.Body>
      <Footer onCancel={onCancel} canSave={form.formState.isValid} />
    </form>
  );
}

/** Adds or edits one video track; the rules of section 5 show under the fields and keep Save disabled. */
export function VideoTrackModal(props: TrackModalProps<VideoTrack>) {
  return (
    <Modal show={props.track !== null} onHide={props.onCancel} centered aria-labelledby="video-track-title">
      {props.track && <VideoTrackForm {...props} track={props.track} />}
    </Modal>
  );
}

export function AudioTrackModal(props: TrackModalProps<AudioTrack>) {
  return (
    <Modal show={props.track !== null} onHide={props.onCancel} centered aria-labelledby="audio-track-title">
      {props.track && <AudioTrackForm {...props} track={props.track} />}
    </Modal>
  );
}
