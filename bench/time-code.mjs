// A wall-clock time code drawn into the picture by the encoder and read back by the player's page, for
// glass-to-glass latency: the encoder writes the epoch milliseconds at which each frame was made as 48
// black/white blocks (two rows of 24, 16 px squares, most significant bit first) in the top-left corner;
// the page reads them from every presented frame. 16 px blocks on the 16 px grid survive H.264 at 2 Mb/s and
// the node's VP8 (WHEP) re-encode: a block's centre stays far from grey.
import { spawn } from 'node:child_process';

export const TIME_CODE = { bits: 48, columns: 24, block: 16, width: 640, height: 360, rate: 30 };

/** Whether bit `index` (0 = most significant) of the frame's code is set, as a geq expression over X and Y. */
function bitExpression({ bits, columns, block }) {
  const index = `(floor(Y/${block})*${columns}+floor(X/${block}))`;
  // T is the frame's time in seconds (its pts, stamped in ms below): the code is those milliseconds.
  return `mod(floor(floor(T*1000+0.5)/pow(2\\,${bits - 1}-${index}))\\,2)`;
}

/**
 * The filter graph: each frame's pts becomes the wall-clock time it leaves the (real-time paced) source, in
 * ms — the time it was made, as a camera's capture time, not ffmpeg's start plus the frame's index; a strip of
 * the picture is redrawn as that time's blocks and laid over it; then the pts go back to a steady 1/30 s.
 */
export function timeCodeFilter(code = TIME_CODE) {
  const rows = Math.ceil(code.bits / code.columns);
  const strip = `${code.columns * code.block}:${rows * code.block}`;
  return [
    `[0:v]format=yuv420p,settb=1/1000,setpts='time(0)*1000',split[picture][stamp]`,
    `[stamp]crop=${strip}:0:0,geq=lum='255*${bitExpression(code)}':cb=128:cr=128[code]`,
    `[picture][code]overlay=0:0,setpts=N*1000/${code.rate}[video]`,
  ].join(';');
}

/**
 * Pushes a live test pattern with the time code to `url` (RTMP): ffmpeg paces its sources in real time (-re),
 * libx264 with no lookahead or B-frames (-tune zerolatency), a keyframe a second, and AAC audio.
 */
export function pushTimeCoded(url, code = TIME_CODE) {
  const size = `${code.width}x${code.height}`;
  return spawn(
    'ffmpeg',
    [
      ...['-hide_banner', '-loglevel', 'error'],
      ...['-re', '-f', 'lavfi', '-i', `testsrc2=size=${size}:rate=${code.rate}`],
      ...['-re', '-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=48000'],
      ...['-filter_complex', timeCodeFilter(code), '-map', '[video]', '-map', '1:a'],
      ...['-c:v', 'libx264', '-preset', 'veryfast', '-tune', 'zerolatency', '-bf', '0'],
      ...['-g', String(code.rate), '-keyint_min', String(code.rate), '-sc_threshold', '0'],
      ...['-b:v', '1900k', '-maxrate', '1900k', '-bufsize', '1900k'],
      ...['-c:a', 'aac', '-b:a', '96k', '-f', 'flv', url],
    ],
    { stdio: ['ignore', 'ignore', process.env.BENCH_MEDIA_DEBUG ? 'inherit' : 'ignore'] },
  );
}

/**
 * The code in an image's pixels: `luma(x, y)` (0–255) at the centre of each block of the picture as encoded
 * (`scale` = the shown picture's width over the encoded one). Null when a block is too grey to tell (not a
 * time-coded frame, or one the codec smeared). Self-contained: it also runs in the page.
 */
export function readTimeCode(luma, code, scale = 1) {
  let value = 0;
  for (let index = 0; index < code.bits; index++) {
    const x = ((index % code.columns) + 0.5) * code.block * scale;
    const y = (Math.floor(index / code.columns) + 0.5) * code.block * scale;
    const level = luma(Math.floor(x), Math.floor(y));
    if (level > 80 && level < 176) return null;
    // 48 bits: arithmetic, not bitwise operators (32 bits).
    value = value * 2 + (level >= 128 ? 1 : 0);
  }
  return value;
}

/**
 * In the page, before the console runs: on each frame the Stream preview's <video> presents
 * (requestVideoFrameCallback), the time code's strip is drawn into a canvas and read; the latency is the
 * frame's display time (expectedDisplayTime, on the page's clock: the machine's, as the encoder's) minus
 * its code. Frames are told apart by what plays them: a MediaStream is WHEP, anything else HLS. The page
 * gets it with `timeCodeReaderScript()`.
 */
export function installTimeCodeReader(read, code) {
  const state = { frames: [], unread: 0, stalls: [] };
  window.__timeCode = state;
  const rows = Math.ceil(code.bits / code.columns);
  const canvas = document.createElement('canvas');
  const context = canvas.getContext('2d', { willReadFrequently: true });
  const watch = (video) => {
    const onFrame = (_now, metadata) => {
      video.requestVideoFrameCallback(onFrame);
      const scale = video.videoWidth / code.width;
      canvas.width = Math.ceil(code.columns * code.block * scale);
      canvas.height = Math.ceil(rows * code.block * scale);
      context.drawImage(video, 0, 0, canvas.width, canvas.height, 0, 0, canvas.width, canvas.height);
      const { data } = context.getImageData(0, 0, canvas.width, canvas.height);
      const luma = (x, y) => {
        const at = (y * canvas.width + x) * 4;
        return (data[at] + data[at + 1] + data[at + 2]) / 3;
      };
      const value = read(luma, code, scale);
      if (value === null) {
        state.unread++;
        return;
      }
      // What the player holds past this frame (HLS: Media Source's buffer; a MediaStream has none): the part
      // of the latency the player chose, the rest being the way to it.
      const { buffered } = video;
      const ahead = buffered.length > 0 ? (buffered.end(buffered.length - 1) - metadata.mediaTime) * 1000 : null;
      state.frames.push({
        kind: video.srcObject ? 'WHEP' : 'HLS',
        latency: performance.timeOrigin + metadata.expectedDisplayTime - value,
        ahead,
      });
    };
    video.requestVideoFrameCallback(onFrame);
    // A stall (the player ran out of media): hls.js then keeps further from live for the rest of the session.
    video.addEventListener('waiting', () => {
      if (state.frames.length > 0) state.stalls.push({ at: performance.now(), afterFrames: state.frames.length });
    });
  };
  const observer = new MutationObserver(() => {
    const video = document.querySelector('video[aria-label="Stream preview"]');
    if (!video) return;
    observer.disconnect();
    watch(video);
  });
  observer.observe(document, { childList: true, subtree: true });
}

/** The reader as a page's init script (Playwright's addInitScript({ content })), readTimeCode with it. */
export function timeCodeReaderScript(code = TIME_CODE) {
  return `(${installTimeCodeReader})(${readTimeCode}, ${JSON.stringify(code)});`;
}
