import type { PlayInfo } from '@streamcloud/contract';
import type { Playback } from '@/media/playback';
import { errorKindOf, type PlaybackMonitor } from '@/media/playback-monitor';
import {
  failureText,
  PLAY_TEXTS,
  POLL_MAX_MS,
  pollDelay,
  type Source,
  STUCK_CHECK_MS,
  STUCK_MS,
  viewOf,
  WHEP_FIRST_FRAME_MS,
} from './play-state';

export interface PlayerOptions {
  outputId: string;
  /** The viewer or playback token the page was given (address or host page); null for a Public output. */
  token: string | null;
  /** The public read of the output; null when the API does not know it (404). */
  fetchInfo: (outputId: string) => Promise<PlayInfo | null>;
  /** Starts the source in the element; `onFailure` hears why it stopped later (HLS). */
  start: (
    source: Source,
    token: string,
    video: HTMLVideoElement,
    onFailure: (reason: string) => void,
  ) => Promise<Playback>;
  /** Whether the browser has WebRTC (Firefox can turn it off). */
  webrtc: boolean;
  /** Reports one playback's quality (the viewer beacon) under the viewer session the API issued; none in tests. */
  monitor?: (viewerSession: string, video: HTMLVideoElement) => PlaybackMonitor;
}

export interface Player {
  /** A new token (from the host page): what plays restarts with it. */
  setToken(token: string): void;
  /** Stops polling and playback (the page goes away, or a test ends). */
  destroy(): void;
}

function element<K extends keyof HTMLElementTagNameMap>(tag: K, props: Partial<HTMLElementTagNameMap[K]> = {}) {
  return Object.assign(document.createElement(tag), props);
}

/**
 * The player: a muted autoplaying video with Unmute, Play (when the browser refused autoplay) and Fullscreen
 * buttons, and a status line. While it does not play it asks the API about the output every few seconds
 * (bounded backoff) and says why (offline, starting, a refusal); once the stream is live it plays by itself.
 * While it plays it still asks, less often, to notice the stream ending.
 */
export function mountPlayer(root: HTMLElement, options: PlayerOptions): Player {
  const video = element('video', { muted: true, autoplay: true, playsInline: true });
  video.setAttribute('aria-label', 'Live stream');
  const status = element('p', { className: 'play-status' });
  status.setAttribute('role', 'status');
  const unmute = element('button', { type: 'button', textContent: 'Unmute', className: 'play-unmute' });
  const resume = element('button', { type: 'button', textContent: 'Play', hidden: true });
  const fullscreen = element('button', { type: 'button', textContent: 'Fullscreen' });
  const controls = element('div', { className: 'play-controls' });
  controls.append(resume, unmute, fullscreen);
  root.append(video, status, controls);

  unmute.addEventListener('click', () => {
    video.muted = !video.muted;
    if (!video.muted) void video.play().catch(() => {});
  });
  video.addEventListener('volumechange', () => {
    unmute.textContent = video.muted ? 'Unmute' : 'Mute';
  });
  resume.addEventListener(
    'click',
    () =>
      void video.play().then(
        () => (resume.hidden = true),
        () => {},
      ),
  );
  fullscreen.addEventListener('click', () => void root.requestFullscreen?.().catch(() => {}));

  let token = options.token;
  let playback: Playback | null = null;
  /** The playback's quality reporter, from its start to its stop. */
  let monitor: PlaybackMonitor | null = null;
  /** The latest viewer session credential the API gave: each playback started is one session. */
  let viewerSession = '';
  /** The source playing or starting (its key), so a poll does not start it again. */
  let playing: string | null = null;
  let attempt = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  /** Looks at the playing picture's time (STUCK_MS). */
  let watchdog: ReturnType<typeof setInterval> | undefined;
  let destroyed = false;
  /**
   * Whether this page plays WebRTC outputs over WHEP. It stops for the page's life once a WHEP playback failed in
   * its transport before its first picture (ICE failed, or no media within WHEP_FIRST_FRAME_MS) while the API offers
   * an HLS fallback: the viewer's network does not carry WebRTC, and HLS goes over HTTP. A refusal by the node (a
   * token, a limit) is not that, and a viewer who reloads tries WebRTC again.
   */
  let webrtc = options.webrtc;
  /** Whether the latest public read offered an HLS playback beside WHEP (`playback.hls`). */
  let hlsFallback = false;
  /** Whether the current playback's picture has moved since it started. */
  let pictureMoved = false;

  const say = (message: string) => {
    // The same text again is not news: the backoff goes on; a new one starts it over.
    if (status.textContent !== message) attempt = 0;
    status.textContent = message;
    status.hidden = message === '';
  };
  const stop = () => {
    clearInterval(watchdog);
    monitor?.close();
    monitor = null;
    playback?.close();
    playback = null;
    playing = null;
  };
  const schedule = () => {
    clearTimeout(timer);
    if (destroyed) return;
    timer = setTimeout(check, playing ? POLL_MAX_MS : pollDelay(attempt++));
  };
  const fail = (source: Source, reason: string) => {
    monitor?.failed(errorKindOf(source.kind, reason), reason);
    stop();
    say(failureText(source.kind, reason));
    schedule();
  };
  /** A WHEP transport failure before the first picture: HLS from now on, asked for at once (see `webrtc`). */
  const failTransport = (source: Source, reason: string) => {
    const fallBack = source.kind === 'whep' && !pictureMoved && hlsFallback && webrtc;
    fail(source, reason);
    if (!fallBack) return;
    webrtc = false;
    clearTimeout(timer);
    timer = setTimeout(check, 0);
  };

  /** Starts the playing source again once it ended, or its picture moved and then stood still for STUCK_MS (not paused). */
  const watch = (source: Source) => {
    clearInterval(watchdog);
    let last = video.currentTime;
    const startedAt = Date.now();
    let movedAt = startedAt;
    watchdog = setInterval(() => {
      // An ended element is paused too: a live stream has no end, so it is over and may come back.
      if (video.ended) fail(source, PLAY_TEXTS.ended);
      else if (video.paused || video.currentTime !== last) {
        pictureMoved ||= video.currentTime !== last;
        last = video.currentTime;
        movedAt = Date.now();
      } else if (pictureMoved && Date.now() - movedAt >= STUCK_MS) fail(source, PLAY_TEXTS.stuck);
      else if (!pictureMoved && hlsFallback && source.kind === 'whep' && Date.now() - startedAt >= WHEP_FIRST_FRAME_MS)
        failTransport(source, PLAY_TEXTS.noPicture);
    }, STUCK_CHECK_MS);
  };

  async function begin(source: Source) {
    const key = `${source.kind} ${source.url}`;
    if (playing === key) return;
    stop();
    playing = key;
    pictureMoved = false;
    say('');
    monitor = viewerSession ? (options.monitor?.(viewerSession, video) ?? null) : null;
    try {
      // What it hears later is the transport's end (WHEP: the connection lost; HLS: a fatal error).
      const started = await options.start(source, token ?? '', video, (reason) => {
        if (playing === key) failTransport(source, reason);
      });
      if (playing !== key || destroyed) return started.close();
      playback = started;
      monitor?.started(started);
      watch(source);
      await video.play().catch(() => {
        resume.hidden = false;
      });
    } catch (error) {
      if (playing === key) fail(source, error instanceof Error ? error.message : String(error));
    }
  }

  async function check() {
    let info: PlayInfo | null;
    try {
      info = await options.fetchInfo(options.outputId);
    } catch {
      if (!playing) say(PLAY_TEXTS.unreachable);
      return schedule();
    }
    if (destroyed) return;
    if (!info) {
      stop();
      return say(PLAY_TEXTS.notFound);
    }
    viewerSession = info.viewerSession;
    const poster = info.poster ?? '';
    if (video.getAttribute('poster') !== poster) video.setAttribute('poster', poster);
    hlsFallback = Boolean(info.playback.hls);
    const view = viewOf(info, webrtc);
    if (view.kind === 'wait') {
      stop();
      say(view.message);
    } else {
      // Not awaited: the next poll is timed from now, and a failed start schedules its own.
      void begin(view.source);
    }
    schedule();
  }

  void check();
  return {
    setToken(next) {
      if (next === token) return;
      token = next;
      stop();
      void check();
    },
    destroy() {
      destroyed = true;
      clearTimeout(timer);
      stop();
    },
  };
}
