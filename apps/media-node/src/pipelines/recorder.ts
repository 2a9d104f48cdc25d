import type { NodeRecording } from '@streamcloud/contract';
import type { LiveStream } from '../streams/types.js';
import type { Pipeline, PipelineKind, StopReason } from './pipeline.js';
import type { Recordings } from './recorder/recordings.js';

/**
 * The recorder: records a live stream's recordings (docs/decisions.md, "Recordings on the node"). Its
 * configuration is the recordings the stream should run now; the node's `Recordings` keeps the runs,
 * which outlive the push (reconnect grace, uploads, restarts), so the pipeline only tells it what the
 * stream needs.
 */
export const recorderKind = ({ recordings }: { recordings: Recordings }): PipelineKind<NodeRecording[]> => ({
  name: 'recorder',
  part: 'recordings',
  async load(assigned) {
    const runnable = await recordings.runnable(assigned);
    return runnable.length > 0 ? runnable : null;
  },
  create: () => new StreamRecorder(recordings),
  // What a run depends on; a recording's progress (which the node reports itself) changes nothing here.
  same: (a, b) => JSON.stringify(a.map(runKey)) === JSON.stringify(b.map(runKey)),
});

const runKey = (recording: NodeRecording) => [recording.id, recording.stopRequested, recording.state === 'Recording'];

class StreamRecorder implements Pipeline<NodeRecording[]> {
  private stream: LiveStream | null = null;

  constructor(private readonly recordings: Recordings) {}

  async start(stream: LiveStream, config: NodeRecording[]): Promise<void> {
    this.stream = stream;
    await this.recordings.run(stream, config);
  }

  async update(config: NodeRecording[]): Promise<void> {
    if (this.stream) await this.recordings.run(this.stream, config);
  }

  stop(reason: StopReason): void {
    if (this.stream) this.recordings.release(this.stream, reason);
  }
}
