import {
  type AccessMode,
  DEFAULT_ADJUSTABLE_TRACKS,
  type GeoPoint,
  type InputFormat,
  STREAM_CREATION_DEFAULTS,
  type StreamFormat,
  type StreamInput,
  type StreamInputCreateDraft,
} from '@streamcloud/contract';
import type { StreamUpdateBody } from '@/data/streams/update-stream';
import type { OutputMode } from './stream-list';

/** What the stream modal's inputs hold. */
export interface StreamFormValues {
  caption: string;
  format: InputFormat;
  output: OutputMode;
  access: AccessMode;
  accessToken: string;
  gslb: boolean;
  callbackUri: string;
  streamerIp: string;
  /** Internode: the node the source stream is on, and its name. */
  sourceNode: string;
  sourceName: string;
}

/** Creation defaults: WebRTC, adjustable transcoding, Public. */
export const NEW_STREAM_VALUES: StreamFormValues = {
  caption: '',
  format: STREAM_CREATION_DEFAULTS.format,
  output: STREAM_CREATION_DEFAULTS.output,
  access: STREAM_CREATION_DEFAULTS.access,
  accessToken: '',
  gslb: false,
  callbackUri: '',
  streamerIp: '',
  sourceNode: '',
  sourceName: '',
};

export function toStreamFormValues(stream: StreamInput): StreamFormValues {
  return {
    caption: stream.caption ?? '',
    format: stream.format,
    output: stream.outputMode,
    access: stream.access,
    accessToken: stream.accessToken ?? '',
    gslb: stream.gslb,
    callbackUri: stream.callbackUri ?? '',
    streamerIp: stream.streamer.ipAddress ?? '',
    sourceNode: stream.source?.streamNode ?? '',
    sourceName: stream.source?.name ?? '',
  };
}

/** The access token field is shown for Private and PrivateIngoing... */
export function showsAccessToken(access: AccessMode): boolean {
  return access === 'Private' || access === 'PrivateIngoing';
}

/** ...but sent only for Private (blank: the server generates one). */
export function sendsAccessToken(access: AccessMode): boolean {
  return access === 'Private';
}

/** Disabled inputs may answer undefined. */
const text = (value: string | undefined): string => (value ?? '').trim();

function streamer(values: StreamFormValues, geo: GeoPoint | null) {
  const ipAddress = text(values.streamerIp);
  return { ipAddress, ...(ipAddress && geo ? { geoLocation: geo } : {}) };
}

/** POST /inputs: format, access, accessToken (Private only), caption, gslb, callbackUri, streamer, output. */
export function toCreateBody(
  values: StreamFormValues,
  geo: GeoPoint | null,
  ownerId?: string | null,
): StreamInputCreateDraft {
  const caption = text(values.caption);
  const callbackUri = text(values.callbackUri);
  const token = text(values.accessToken);
  const passthrough = values.output === 'Passthrough';
  const ip = text(values.streamerIp);
  return {
    // The resolver checks the body with StreamInputCreate: only a creatable format gets through.
    format: values.format as StreamFormat,
    ...(values.format === 'Internode'
      ? { source: { streamNode: text(values.sourceNode), name: text(values.sourceName) } }
      : {}),
    access: values.access,
    ...(sendsAccessToken(values.access) && token ? { accessToken: token } : {}),
    ...(caption ? { caption } : {}),
    gslb: values.gslb,
    ...(callbackUri ? { callbackUri } : {}),
    ...(ip ? { streamer: streamer(values, geo) } : {}),
    output: { version: 2, passthrough, tracks: passthrough ? [] : DEFAULT_ADJUSTABLE_TRACKS },
    ...(ownerId ? { ownerId } : {}),
  };
}

/**
 * PUT /inputs/{id} from the modal: only the streamer changes after creation (caption, format, output,
 * GSLB, callbackUri and access are creation-time fields; an empty callbackUri is never sent).
 */
export function toUpdateBody(values: StreamFormValues, geo: GeoPoint | null): StreamUpdateBody {
  return { streamer: streamer(values, geo) };
}

/** Where a contract error path (`caption`, `streamer.ipAddress`, ...) shows in the form. */
export const FIELD_OF_PATH: Record<string, keyof StreamFormValues> = {
  caption: 'caption',
  format: 'format',
  access: 'access',
  accessToken: 'accessToken',
  gslb: 'gslb',
  callbackUri: 'callbackUri',
  'streamer.ipAddress': 'streamerIp',
  output: 'output',
  'output.passthrough': 'output',
  source: 'sourceName',
  'source.streamNode': 'sourceNode',
  'source.name': 'sourceName',
};
