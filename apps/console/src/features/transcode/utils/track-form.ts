import {
  type AudioCodec,
  AudioTrack,
  type H264SpeedPreset,
  type H264Tune,
  NEW_VIDEO_TRACK,
  NEW_VPX_SETTINGS,
  VideoTrack,
} from '@streamcloud/contract';
import { contractResolver, fieldsByPath } from '@/lib/forms';

/** Empty text is absent; anything else is a number (NaN when it is not one). */
const numberOf = (text: string): number | undefined => (text.trim() === '' ? undefined : Number(text));
const textOf = (value: number | undefined) => (value === undefined ? '' : String(value));

export interface VideoTrackValues {
  type: VideoTrack['type'];
  width: string;
  height: string;
  framerate: string;
  bitrate: string;
  speedPreset: H264SpeedPreset;
  tune: H264Tune;
  /** keyIntMax for H264, keyMaxDist for VP8 and VP9. */
  keyInterval: string;
}

export function videoValues(track: VideoTrack): VideoTrackValues {
  const h264 = track.type === 'H264' ? track.settings : null;
  return {
    type: track.type,
    width: textOf(track.width),
    height: textOf(track.height),
    framerate: textOf(track.framerate),
    bitrate: textOf(track.settings.bitrate),
    speedPreset: h264?.speedPreset ?? 'superfast',
    tune: h264?.tune ?? 'zerolatency',
    keyInterval: textOf(track.type === 'H264' ? track.settings.keyIntMax : track.settings.keyMaxDist),
  };
}

/** The track the values stand for (not yet validated). */
export function videoTrackOf(values: VideoTrackValues): unknown {
  const size = { width: numberOf(values.width), height: numberOf(values.height) };
  const base = {
    type: values.type,
    ...(size.width !== undefined ? { width: size.width } : {}),
    ...(size.height !== undefined ? { height: size.height } : {}),
    framerate: numberOf(values.framerate),
  };
  return values.type === 'H264'
    ? {
        ...base,
        settings: {
          bitrate: numberOf(values.bitrate),
          speedPreset: values.speedPreset,
          tune: values.tune,
          keyIntMax: numberOf(values.keyInterval),
        },
      }
    : { ...base, settings: { bitrate: numberOf(values.bitrate), keyMaxDist: numberOf(values.keyInterval) } };
}

/** When the codec changes between H264 and VP8, the key interval takes the new codec's default. */
export function keyIntervalDefault(type: VideoTrack['type']): string {
  return type === 'H264' && NEW_VIDEO_TRACK.type === 'H264'
    ? String(NEW_VIDEO_TRACK.settings.keyIntMax)
    : String(NEW_VPX_SETTINGS.keyMaxDist);
}

export interface AudioTrackValues {
  type: AudioCodec;
  rate: string;
  channels: string;
  bitrate: string;
}

export function audioValues(track: AudioTrack): AudioTrackValues {
  return {
    type: track.type,
    rate: textOf(track.rate),
    channels: textOf(track.channels),
    bitrate: textOf(track.settings.bitrate),
  };
}

export function audioTrackOf(values: AudioTrackValues): unknown {
  return {
    type: values.type,
    rate: numberOf(values.rate),
    channels: numberOf(values.channels),
    settings: { bitrate: numberOf(values.bitrate) },
  };
}

const VIDEO_FIELDS: Record<string, keyof VideoTrackValues & string> = {
  type: 'type',
  width: 'width',
  height: 'height',
  framerate: 'framerate',
  'settings.bitrate': 'bitrate',
  'settings.speedPreset': 'speedPreset',
  'settings.tune': 'tune',
  'settings.keyIntMax': 'keyInterval',
  'settings.keyMaxDist': 'keyInterval',
};
const AUDIO_FIELDS: Record<string, keyof AudioTrackValues & string> = {
  type: 'type',
  rate: 'rate',
  channels: 'channels',
  'settings.bitrate': 'bitrate',
};

// The contract's track schemas (the server's own rules) check the track the inputs stand for.
export const videoResolver = contractResolver(VideoTrack, {
  toBody: videoTrackOf,
  fieldOfPath: fieldsByPath(VIDEO_FIELDS),
});
export const audioResolver = contractResolver(AudioTrack, {
  toBody: audioTrackOf,
  fieldOfPath: fieldsByPath(AUDIO_FIELDS),
});
