// Issue 35's "seek-to-first-frame in the player" (goal ≤ 2 s): the console's preview player (hls.js, the stream
// dashboard's Preview card) on a Low latency output with a rewind window, in Debian's Chromium. Each round moves its
// Seek bar back from the live edge (60 s, then 10 s further each round, so it never lands where the player has
// buffered already: the table says so), as a user's drag ends, and times the first frame the <video> presents from
// there (requestVideoFrameCallback, its media time within the target's segment); then presses Live and times the first
// frame back at the live edge. What it measures: the player's fetch of the older segment from the node's disk (DVR),
// its decode, and the console's own work between the range's change and the video's seek.
import { chromium } from 'playwright-core';
import { CHROMIUM, percentile, pickPreviewOutput, signedInContext } from './lib.mjs';

const ROUNDS = Number(process.env.BENCH_SEEK_ROUNDS ?? 5);
const BACK_SECONDS = 60;
const GOAL_MS = 2000;
const FRAME_TIMEOUT_MS = 20_000;

/**
 * In the page: moves the Seek range (React hears an input event) or presses Live, and resolves with the ms until the
 * video presents a frame whose media time is at the target (within -1…+3 s: a seek lands on the segment's start).
 */
function seekAndTime({ back, timeoutMs }) {
  const bufferedAt = (time) => {
    for (let index = 0; index < video.buffered.length; index++)
      if (video.buffered.start(index) <= time && time <= video.buffered.end(index)) return true;
    return false;
  };
  const video = document.querySelector('video[aria-label="Stream preview"]');
  const range = document.querySelector('input[type="range"][aria-label="Seek"]');
  if (!video || !range) throw new Error('no player with a Seek bar on the page');
  const end = video.seekable.end(video.seekable.length - 1);
  const target = back === null ? end : end - back;
  const buffered = bufferedAt(target);
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const timer = setTimeout(
      () => reject(new Error(`no frame at ${target.toFixed(1)} s in ${timeoutMs} ms`)),
      timeoutMs,
    );
    const onFrame = (_now, frame) => {
      // Back to live, the player settles behind the edge by its hold-back: any frame past the target minus 4 s.
      const low = back === null ? target - 4 : target - 1;
      if (frame.mediaTime >= low && frame.mediaTime <= target + 3) {
        clearTimeout(timer);
        resolve({ ms: performance.now() - started, buffered });
      } else video.requestVideoFrameCallback(onFrame);
    };
    video.requestVideoFrameCallback(onFrame);
    if (back === null) {
      const live = [...document.querySelectorAll('button')].find((button) => button.textContent === 'Live');
      if (!live) throw new Error('no Live button');
      live.click();
    } else {
      const setValue = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value').set;
      setValue.call(range, String(target));
      range.dispatchEvent(new Event('input', { bubbles: true }));
    }
  });
}

/**
 * Rows of the seek table: the console's preview of `output` (a Low latency HLS output with a window at least
 * BACK_SECONDS + 10 * ROUNDS s long by now) on the stream's dashboard, ROUNDS seeks back and returns to live.
 */
export async function seekRows(base, stream, output) {
  const browser = await chromium.launch(CHROMIUM);
  try {
    const context = await signedInContext(browser, base);
    const page = await context.newPage();
    await page.goto(`${base}/#/streams/view/${stream.id}`);
    await pickPreviewOutput(page, output.id, FRAME_TIMEOUT_MS);
    await page.waitForFunction(
      (seconds) => {
        const video = document.querySelector('video[aria-label="Stream preview"]');
        const seekable = video?.seekable;
        return (
          video?.getVideoPlaybackQuality().totalVideoFrames > 0 &&
          seekable?.length > 0 &&
          seekable.end(seekable.length - 1) - seekable.start(0) > seconds &&
          document.querySelector('input[aria-label="Seek"]') !== null
        );
      },
      BACK_SECONDS + 10 * ROUNDS + 5,
      { timeout: FRAME_TIMEOUT_MS },
    );
    const back = [];
    const live = [];
    for (let round = 0; round < ROUNDS; round++) {
      back.push(await page.evaluate(seekAndTime, { back: BACK_SECONDS + 10 * round, timeoutMs: FRAME_TIMEOUT_MS }));
      live.push(await page.evaluate(seekAndTime, { back: null, timeoutMs: FRAME_TIMEOUT_MS }));
    }
    const row = (what, results) => {
      const times = results.map((result) => result.ms);
      return {
        seek: what,
        'already buffered': `${results.filter((result) => result.buffered).length} of ${results.length}`,
        'first frame, ms (median)': Math.round(percentile(times, 50)),
        'max, ms': Math.round(Math.max(...times)),
        [`goal ≤ ${GOAL_MS} ms`]: percentile(times, 50) <= GOAL_MS ? 'met' : 'missed',
      };
    };
    return [
      row(`${BACK_SECONDS}–${BACK_SECONDS + 10 * (ROUNDS - 1)} s back from live`, back),
      row('Live (back to the edge)', live),
    ];
  } finally {
    await browser.close();
  }
}

export const SEEK_TITLE =
  `The console's preview player (hls.js) on the rewind window, in Chromium: Seek moved back (${BACK_SECONDS} s, then ` +
  `10 s further each round), then Live pressed, ${ROUNDS} rounds each → the first frame presented there`;
