import { describe, expect, it } from 'vitest';
import type { Logger } from '../log.js';
import type { AssignedStream } from '../streams/directory.js';
import { StreamEvents } from '../streams/events.js';
import type { LiveStream } from '../streams/types.js';
import type { NodeTools, PipelineKind, SourceContext, SourceKind, StreamSource } from './pipeline.js';
import { type PipelineOffers, Pipelines } from './pipelines.js';

const quiet: Logger = { info: () => {}, error: () => {}, debug: () => {} };

/** A job kind that runs for every live stream (its part is read, and configures it). */
const jobKind =
  (name: string) =>
  ({ events }: Pick<PipelineOffers, 'events'>): PipelineKind<string> => {
    expect(events).toBeInstanceOf(StreamEvents);
    return {
      name,
      part: 'config',
      load: async () => name,
      create: () => ({ start: () => {}, update: () => {}, stop: () => {} }),
    };
  };

/** A source kind: answers the streams it is asked for, and says when it was stopped. */
class TestSource implements StreamSource {
  stopped = false;
  pull = async (assigned: AssignedStream) => ({ id: `pulled ${assigned.id}` }) as unknown as LiveStream;
  stopAll = async () => {
    this.stopped = true;
  };
}
const sourceKind = (): SourceKind<TestSource> => ({ name: 'test source', create: () => new TestSource() });

function pipelinesOf(kinds: ConstructorParameters<typeof Pipelines>[0]) {
  const events = new StreamEvents(quiet);
  const admission: { pull: StreamSource['pull'] | null } = { pull: null };
  const pipelines = new Pipelines(kinds, { events } as PipelineOffers, {
    live: {
      log: quiet,
      tools: {} as NodeTools,
      reporterFor: () => ({ message: () => {}, send: () => {} }),
      meter: () => () => {},
    },
    source: {} as SourceContext,
    admission,
  });
  return { events, admission, pipelines };
}

describe('the node pipelines (one list of kinds)', () => {
  it('runs each job kind for a live stream, in the order of the list', async () => {
    const { events, pipelines } = pipelinesOf([jobKind('first'), sourceKind, jobKind('second')]);
    events.live({ id: 'push-1', assigned: { id: 'stream-1', name: 'one' }, pulledFrom: null } as unknown as LiveStream);
    await expect.poll(() => pipelines.running('stream-1').map(([kind]) => kind)).toEqual(['first', 'second']);
    expect(pipelines.running('stream-2')).toEqual([]);
  });

  it("plugs a source kind into admission, answers it by its kind and stops it with the node's sources", async () => {
    const { admission, pipelines } = pipelinesOf([jobKind('first'), sourceKind]);
    const source = pipelines.source(sourceKind);
    expect(source).toBeInstanceOf(TestSource);
    expect(await admission.pull?.({ id: 'stream-1' } as AssignedStream)).toEqual({ id: 'pulled stream-1' });
    await pipelines.stopSources();
    expect(source.stopped).toBe(true);
    expect(() => pipelinesOf([jobKind('first')]).pipelines.source(sourceKind)).toThrow(/not in the node's list/);
  });
});
