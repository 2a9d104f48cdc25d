import type { MediaPorts } from '../config.js';
import type { Logger } from '../log.js';
import type { StreamManager } from '../streams/manager.js';
import type { FrontEndContext } from './front-end.js';

/** What a listener on one of the node's media ports is given (SRT, SRT playback, RTSP). */
export interface ListenerOptions {
  ffmpeg: string;
  port: number;
  bindHost: string;
  manager: StreamManager;
  log: Logger;
}

/** What a listener that takes pushes in a protocol nginx-rtmp does not speak (SRT, RTSP) is given. */
export interface PushListenerOptions extends ListenerOptions {
  /** Where an admitted push is relayed to (nginx-rtmp, under the stream id). */
  relayUrl: (streamId: string) => string;
}

/** A listener's options on the media port `port` of the node's configuration. */
export function listenerOptions(
  { config, manager, log }: Pick<FrontEndContext, 'config' | 'manager' | 'log'>,
  port: keyof MediaPorts,
): ListenerOptions {
  return { ffmpeg: config.ffmpeg, port: config.mediaPorts[port], bindHost: config.bindHost, manager, log };
}
