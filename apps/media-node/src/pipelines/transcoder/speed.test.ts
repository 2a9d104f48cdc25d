import { describe, expect, it } from 'vitest';
import { SpeedMeter } from './speed.js';

/** Feeds the meter one progress sample a second: `rate` media seconds per wall-clock second. */
function run(meter: SpeedMeter, from: number, seconds: number, rate: number, start = { media: 0 }): void {
  for (let second = 0; second < seconds; second++) {
    start.media += rate;
    meter.sample(start.media, from + second * 1000);
  }
}

describe('the transcoder speed meter', () => {
  it('measures media seconds per second over the last 5 s, and judges nothing in the warm-up', () => {
    const changes: { slow: boolean; speed: number }[] = [];
    const meter = new SpeedMeter((change) => changes.push(change), 0);
    const media = { media: 0 };
    run(meter, 0, 8, 0.5, media);
    expect(meter.current).toBe(0.5);
    expect(changes).toEqual([]);
  });

  it('says once when the encoder falls behind and once when it keeps up again', () => {
    const changes: { slow: boolean; speed: number }[] = [];
    const meter = new SpeedMeter((change) => changes.push(change), 0);
    const media = { media: 0 };
    run(meter, 0, 12, 1, media);
    expect(changes).toEqual([]);
    run(meter, 12_000, 10, 0.6, media);
    expect(changes).toEqual([{ slow: true, speed: expect.any(Number) }]);
    expect(changes[0]?.speed).toBeLessThan(0.95);
    run(meter, 22_000, 10, 1.2, media);
    expect(changes.map((change) => change.slow)).toEqual([true, false]);
    expect(changes[1]?.speed).toBeGreaterThanOrEqual(0.98);
  });

  it('reads out_time_us from ffmpeg -progress output split across chunks', () => {
    const meter = new SpeedMeter(() => {}, 0);
    const samples: number[] = [];
    meter.sample = (media) => samples.push(media);
    meter.progress('frame=30\nout_time_us=1000');
    meter.progress('000\nspeed=1.0x\nprogress=continue\nout_time_us=2500000\n');
    expect(samples).toEqual([1, 2.5]);
  });
});
