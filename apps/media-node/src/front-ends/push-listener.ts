import type { Logger } from '../log.js';
import type { StreamManager } from '../streams/manager.js';

/** What a listener that takes pushes in a protocol nginx-rtmp does not speak (SRT, RTSP) is given. */
export interface PushListenerOptions {
  ffmpeg: string;
  port: number;
  bindHost: string;
  manager: StreamManager;
  log: Logger;
  /** Where an admitted push is relayed to (nginx-rtmp, under the input id). */
  relayUrl: (inputId: string) => string;
}
