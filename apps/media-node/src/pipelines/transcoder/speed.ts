/** Seconds of progress the speed is measured over, and the seconds after a start it is not judged. */
const WINDOW_S = 5;
const WARM_UP_S = 5;
/** Below this the encoder falls behind the live input; at or above `RECOVERED` it keeps up again. */
const SLOW = 0.95;
const RECOVERED = 0.98;

/**
 * The encoder's real-time speed from ffmpeg's `-progress` output: media seconds encoded per wall-clock
 * second over the last 5 s (ffmpeg's own `speed=` is the average since its start). Calls `onChange` when
 * the encoder starts falling behind (slow) and when it keeps up again.
 */
export class SpeedMeter {
  private readonly samples: { at: number; media: number }[] = [];
  private buffered = '';
  private slow = false;
  current: number | null = null;

  constructor(
    private readonly onChange: (change: { slow: boolean; speed: number }) => void,
    private readonly startedAt = Date.now(),
  ) {}

  /** A chunk of ffmpeg's progress output (`key=value` lines, a block per second ending with `progress=`). */
  progress(chunk: string): void {
    this.buffered += chunk;
    const lines = this.buffered.split('\n');
    this.buffered = lines.pop() ?? '';
    for (const line of lines) {
      const match = /^out_time_us=(\d+)/.exec(line);
      if (match) this.sample(Number(match[1]) / 1e6, Date.now());
    }
  }

  sample(mediaSeconds: number, at: number): void {
    this.samples.push({ at, media: mediaSeconds });
    while (this.samples.length > 1 && at - (this.samples[0]?.at ?? at) > WINDOW_S * 1000) this.samples.shift();
    const first = this.samples[0];
    if (!first || at - first.at < (WINDOW_S - 1) * 1000) return;
    this.current = Math.round(((mediaSeconds - first.media) / ((at - first.at) / 1000)) * 100) / 100;
    if (at - this.startedAt < (WARM_UP_S + WINDOW_S) * 1000) return;
    if (!this.slow && this.current < SLOW) {
      this.slow = true;
      this.onChange({ slow: true, speed: this.current });
    } else if (this.slow && this.current >= RECOVERED) {
      this.slow = false;
      this.onChange({ slow: false, speed: this.current });
    }
  }
}
