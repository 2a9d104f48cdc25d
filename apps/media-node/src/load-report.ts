import type { Reporter } from './control-plane.js';
import { CpuMeter } from './cpu.js';
import { type HealthInputs, nodeHealth } from './health.js';
import type { StreamManager } from './streams/manager.js';

export interface LoadReportOptions {
  manager: StreamManager;
  reporter: Reporter;
  /** The folders whose free space is the node's health (data, recordings). */
  folders: HealthInputs['folders'];
  /** Recordings written and not uploaded yet. */
  uploadBacklog: () => HealthInputs['uploadBacklog'];
}

/** The node's `load` report (every REPORT_INTERVAL_MS, and on a Bandwidth refresh): CPU, bandwidth, sessions, health. */
export class LoadReport {
  private readonly cpu = new CpuMeter();

  constructor(private readonly o: LoadReportOptions) {}

  send(): void {
    const { bandwidthMbps, sessions } = this.o.manager.usage.tick();
    const cpu = this.cpu.sample();
    this.o.reporter.send({
      kind: 'load',
      at: new Date().toISOString(),
      cpuPercent: Math.round(cpu.percent * 100) / 100,
      bandwidthMbps,
      sessions,
      health: nodeHealth({
        folders: this.o.folders,
        encoderCpuPercent: cpu.encoderPercent,
        uploadBacklog: this.o.uploadBacklog(),
      }),
    });
  }
}
