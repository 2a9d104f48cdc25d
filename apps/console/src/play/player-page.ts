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

  /** Starts the playing source again once it ended, or its picture moved and then stood still for STUCK_MS (not paused). */
  const watch = (source: Source) => {
    clearInterval(watchdog);
    let last = video.currentTime;
    let movedAt = Date.now();
    let moved = false;
    watchdog = setInterval(() => {
      // An ended element is paused too: a live stream has no end, so it is over and may come back.
      if (video.ended) fail(source, PLAY_TEXTS.ended);
      else if (video.paused || video.currentTime !== last) {
        moved ||= video.currentTime !== last;
        last = video.currentTime;
        movedAt = Date.now();
      } else if (moved && Date.now() - movedAt >= STUCK_MS) fail(source, PLAY_TEXTS.stuck);
    }, STUCK_CHECK_MS);
  };

  async function begin(source: Source) {
    const key = `${source.kind} ${source.url}`;
    if (playing === key) return;
    stop();
    playing = key;
    say('');
    monitor = viewerSession ? (options.monitor?.(viewerSession, video) ?? null) : null;
    try {
      const started = await options.start(source, token ?? '', video, (reason) => {
        if (playing === key) fail(source, reason);
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
    const view = viewOf(info, options.webrtc);
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
