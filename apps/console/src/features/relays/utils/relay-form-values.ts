import {
  type CaptureSource,
  capturePreset,
  type Relay,
  type RelayCreateInput,
  type RelayFormat,
  type RelayUpdateInput,
  type TrackSelector,
  UDP_DEFAULT_PORT,
} from '@streamcloud/contract';

/** What the inputs hold: text for numbers. */
export interface RelayFormValues {
  streamId: string;
  format: RelayFormat;
  autostart: boolean;
  callbackUri: string;
  captureSource: CaptureSource;
  server: string;
  key: string;
  endpoint: string;
  unifiedStreamingPlatform: boolean;
  eventID: string;
  videoTimescale: string;
  audioTimescale: string;
  metaTimescale: string;
  ipAddress: string;
  port: string;
}

export function newRelayValues(streamId: string): RelayFormValues {
  return {
    streamId,
    format: 'RTMP',
    autostart: false,
    callbackUri: '',
    captureSource: 'Incoming',
    server: '',
    key: '',
    endpoint: '',
    unifiedStreamingPlatform: false,
    eventID: '',
    videoTimescale: '',
    audioTimescale: '',
    metaTimescale: '',
    ipAddress: '',
    port: String(UDP_DEFAULT_PORT),
  };
}

const text = (value: number | null) => (value === null ? '' : String(value));

/** The key is never answered: its input starts blank (blank keeps it). */
export function toFormValues(relay: Relay): RelayFormValues {
  const values: RelayFormValues = {
    ...newRelayValues(relay.streamId),
    format: relay.format,
    autostart: relay.autostart,
    callbackUri: relay.callbackUri ?? '',
    captureSource: relay.capture.source,
  };
  switch (relay.format) {
    case 'RTMP':
      return { ...values, server: relay.output.server };
    case 'CMAF':
      return {
        ...values,
        endpoint: relay.output.endpoint,
        unifiedStreamingPlatform: relay.output.unifiedStreamingPlatform,
        eventID: relay.output.eventID ?? '',
        videoTimescale: text(relay.output.videoTimescale),
        audioTimescale: text(relay.output.audioTimescale),
        metaTimescale: text(relay.output.metaTimescale),
      };
    case 'UDPTS':
      return { ...values, ipAddress: relay.output.ipAddress, port: String(relay.output.port) };
  }
}

/** '' means not set; anything else is read as a number (the schema says what is wrong with it). */
const numberOrNull = (value: string) => (value.trim() === '' ? null : Number(value));

/**
 * The body the inputs stand for: only the chosen format's output; an empty callback URI is dropped
 * (section 5); a blank key is left out (none on create, kept on update); a blank port takes the default.
 */
export function toBody(values: RelayFormValues, tracks: TrackSelector[] = capturePreset('All')): RelayCreateInput {
  const callbackUri = values.callbackUri.trim();
  const common = {
    streamId: values.streamId,
    autostart: values.autostart,
    ...(callbackUri ? { callbackUri } : {}),
    capture: { source: values.captureSource, tracks },
  };
  switch (values.format) {
    case 'RTMP':
      return {
        ...common,
        format: 'RTMP',
        output: { server: values.server, ...(values.key ? { key: values.key } : {}) },
      };
    case 'CMAF':
      return {
        ...common,
        format: 'CMAF',
        output: {
          endpoint: values.endpoint,
          unifiedStreamingPlatform: values.unifiedStreamingPlatform,
          eventID: values.eventID,
          videoTimescale: numberOrNull(values.videoTimescale),
          audioTimescale: numberOrNull(values.audioTimescale),
          metaTimescale: numberOrNull(values.metaTimescale),
        },
      };
    case 'UDPTS':
      return {
        ...common,
        format: 'UDPTS',
        output: {
          ipAddress: values.ipAddress,
          ...(values.port.trim() === '' ? {} : { port: Number(values.port) }),
        },
      };
  }
}

/** The update body: the stored format, the output, the callback URI and the capture (with its stored tracks). */
export function toUpdateBody(values: RelayFormValues, relay: Relay): RelayUpdateInput {
  const {
    streamId: _streamId,
    autostart: _autostart,
    ...rest
  } = toBody({ ...values, format: relay.format }, relay.capture.tracks);
  return rest as RelayUpdateInput;
}

const OUTPUT_FIELDS: readonly (keyof RelayFormValues)[] = [
  'server',
  'key',
  'endpoint',
  'unifiedStreamingPlatform',
  'eventID',
  'videoTimescale',
  'audioTimescale',
  'metaTimescale',
  'ipAddress',
  'port',
];

/** Where a message about a body path shows in the form. */
export function fieldOfPath(path: readonly PropertyKey[]): keyof RelayFormValues | null {
  const [first, second] = path;
  if (first === 'output') {
    return OUTPUT_FIELDS.includes(second as keyof RelayFormValues) ? (second as keyof RelayFormValues) : null;
  }
  if (first === 'capture') return 'captureSource';
  const fields: readonly string[] = ['streamId', 'format', 'autostart', 'callbackUri'];
  return typeof first === 'string' && fields.includes(first) ? (first as keyof RelayFormValues) : null;
}
