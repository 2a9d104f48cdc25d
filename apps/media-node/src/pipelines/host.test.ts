import { CONFIG_PARTS, type ConfigPart, NOTHING_CONFIGURED } from '@streamcloud/contract';
import { describe, expect, it } from 'vitest';
import type { Logger } from '../log.js';
import type { AssignedStream } from '../streams/directory.js';
import { StreamEvents } from '../streams/events.js';
import type { LiveStream } from '../streams/types.js';
import { LivePipelines } from './host.js';
import type { NodeTools, Pipeline, PipelineKind } from './pipeline.js';

const quiet: Logger = { info: () => {}, error: () => {}, debug: () => {} };

/** A stream whose `fallbacks` part holds nothing, or something (any other version). */
function assignedWith(fallbacks: string): AssignedStream {
  const versions = Object.fromEntries(CONFIG_PARTS.map((part) => [part, `v-${part}`])) as Record<ConfigPart, string>;
  return { id: 'stream-1', name: 'stream-1', versions: { ...versions, fallbacks } } as unknown as AssignedStream;
}

/** A kind of the `fallbacks` part that records its reads and what its pipeline was started and updated with. */
function recordingKind(whenNothing: PipelineKind<string[]>['whenNothing']) {
  const seen = { loads: 0, configs: [] as string[][] };
  const kind: PipelineKind<string[]> = {
    name: 'test kind',
    part: 'fallbacks',
    ...(whenNothing ? { whenNothing } : {}),
    load: async () => {
      seen.loads++;
      return ['read'];
    },
    create: (): Pipeline<string[]> => ({
      start: (_stream, config) => void seen.configs.push(config),
      update: (config) => void seen.configs.push(config),
      stop: () => {},
    }),
  };
  return { kind, seen };
}

function host(kind: PipelineKind<string[]>) {
  const events = new StreamEvents(quiet);
  const pipelines = new LivePipelines(kind, events, {
    log: quiet,
    tools: {} as NodeTools,
    reporterFor: () => ({ message: () => {}, send: () => {} }),
    meter: () => () => {},
  });
  return { events, pipelines };
}

const goLive = (events: StreamEvents, assigned: AssignedStream) =>
  events.live({ id: 'push-1', assigned, pulledFrom: null } as unknown as LiveStream);

describe('a pipeline kind when its part holds nothing (whenNothing)', () => {
  it("'skip': no read and no pipeline, until the part's version says something is configured", async () => {
    const { kind, seen } = recordingKind('skip');
    const { events, pipelines } = host(kind);
    goLive(events, assignedWith(NOTHING_CONFIGURED));
    expect(pipelines.of('stream-1')).toBeNull();
    // A stream's steps run in turn: once the change's read started a pipeline, the live event's step is done too,
    // and it neither read nor started anything.
    events.configChanged(assignedWith('v-2'), new Set(['fallbacks']));
    await expect.poll(() => seen.configs).toEqual([['read']]);
    expect(seen.loads).toBe(1);
    expect(pipelines.of('stream-1')).not.toBeNull();
  });

  it('a configuration: the pipeline runs with it, unread, and reads once the part holds something', async () => {
    const { kind, seen } = recordingKind({ config: [] });
    const { events, pipelines } = host(kind);
    goLive(events, assignedWith(NOTHING_CONFIGURED));
    await expect.poll(() => seen.configs).toEqual([[]]);
    expect(seen.loads).toBe(0);
    expect(pipelines.of('stream-1')).not.toBeNull();

    events.configChanged(assignedWith('v-2'), new Set(['fallbacks']));
    await expect.poll(() => seen.configs).toEqual([[], ['read']]);
    expect(seen.loads).toBe(1);
  });

  it('a kind without whenNothing reads its part whatever its version', async () => {
    const { kind, seen } = recordingKind(undefined);
    const { events } = host(kind);
    goLive(events, assignedWith(NOTHING_CONFIGURED));
    await expect.poll(() => seen.configs).toEqual([['read']]);
    expect(seen.loads).toBe(1);
  });
});
