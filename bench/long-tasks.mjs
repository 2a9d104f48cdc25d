// Where a page's total blocking time comes from: the long tasks of the renderer's main thread in a Chromium
// trace (one Lighthouse recorded, with V8's sampling profiler on), each split by kind of work (module
// evaluation, callbacks, microtasks, style and layout) and by the source the sampled JavaScript came from
// (the build's source maps turn a chunk's line and column back into the package or console module).
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SourceMapConsumer } from 'source-map-js';

/** The trace category that adds the JavaScript samples (Lighthouse leaves it out by default). */
export const SAMPLING_CATEGORY = 'disabled-by-default-v8.cpu_profiler';

/**
 * A task this long on the observed main thread blocks under Lighthouse's simulation: it multiplies every
 * task by the CPU slowdown (4x on its mobile preset) and counts what passes 50 ms.
 */
const CPU_SLOWDOWN = 4;
const LONG_TASK_MS = 50 / CPU_SLOWDOWN;
/** BENCH_PROFILE=lines: each task's hottest source lines too. */
const LINES = process.env.BENCH_PROFILE === 'lines';

/** The main thread of the renderer that parsed the page at `origin`. */
function pageMainThread(events, origin) {
  const parse = events.find((e) => e.name === 'ParseHTML' && e.args?.beginData?.url?.startsWith(origin));
  if (!parse) throw new Error(`no ParseHTML of ${origin} in the trace`);
  return { pid: parse.pid, tid: parse.tid };
}

/** The package (node_modules/…) or console module (src/…) an original source path belongs to. */
function sourceBucket(source) {
  const modules = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(source);
  if (modules) return modules[1];
  const own = /(?:apps\/console\/)?(src\/.*|packages\/[^/]+)/.exec(source);
  return own ? own[1].replace(/^packages\/([^/]+)\/src.*/, '@streamcloud/$1') : source;
}

/** Maps a sampled frame of a built chunk back to its source bucket, through the chunk's source map. */
function sourceMapper(dist) {
  const consumers = new Map();
  const consumer = (file) => {
    if (!consumers.has(file)) {
      const map = join(dist, `${file}.map`);
      consumers.set(file, existsSync(map) ? new SourceMapConsumer(JSON.parse(readFileSync(map, 'utf8'))) : null);
    }
    return consumers.get(file);
  };
  return ({ url, functionName, lineNumber, columnNumber }) => {
    if (!URL.canParse(url)) {
      const name = url || functionName || '(native)';
      return { bucket: name, line: name };
    }
    const file = new URL(url).pathname.slice(1);
    const original = consumer(file)?.originalPositionFor({ line: lineNumber + 1, column: columnNumber });
    if (!original?.source) return { bucket: file, line: `${file}:${lineNumber + 1}` };
    const source = original.source.replace(/^.*node_modules\//, '').replace(/^(\.\.\/)+/, '');
    return { bucket: sourceBucket(original.source), line: `${source}:${original.line}` };
  };
}

/** The main thread's JavaScript samples, as [time in µs, callFrame of the function running]. */
function samples(events, main) {
  const profiles = new Map();
  for (const event of events) {
    if (event.pid !== main.pid) continue;
    if (event.name === 'Profile' && event.tid === main.tid) {
      profiles.set(event.id, { time: event.args.data.startTime, nodes: new Map(), out: [] });
    }
    const profile = event.name === 'ProfileChunk' ? profiles.get(event.id) : undefined;
    if (!profile) continue;
    const { cpuProfile = {}, timeDeltas = [] } = event.args.data;
    for (const node of cpuProfile.nodes ?? []) profile.nodes.set(node.id, node.callFrame);
    (cpuProfile.samples ?? []).forEach((nodeId, i) => {
      profile.time += timeDeltas[i] ?? 0;
      profile.out.push([profile.time, profile.nodes.get(nodeId)]);
    });
  }
  return [...profiles.values()].flatMap((profile) => profile.out).sort((a, b) => a[0] - b[0]);
}

/** The kind of work an event of the main thread is, with the script it ran where that says more. */
function kind(event) {
  const data = event.args?.data ?? {};
  const url = data.url || data.stackTrace?.[0]?.url || event.args?.fileName;
  const file = url ? ` ${new URL(url, 'http://x').pathname.replace(/^\/assets\//, '')}` : '';
  if (event.name === 'v8.evaluateModule' || event.name === 'EvaluateScript') return `evaluate${file}`;
  if (event.name === 'FunctionCall') return `call ${data.functionName || '(anonymous)'}${file}`;
  return event.name;
}

/** Self time of each event in the task (its duration less its children's), summed by kind. */
function selfTimeByKind(task, nested) {
  const totals = new Map();
  const open = [];
  for (const event of [task, ...nested]) {
    while (open.length > 0 && event.ts >= open.at(-1).ts + open.at(-1).dur) open.pop();
    const parent = open.at(-1);
    if (parent) totals.set(kind(parent), (totals.get(kind(parent)) ?? 0) - event.dur);
    totals.set(kind(event), (totals.get(kind(event)) ?? 0) + event.dur);
    open.push(event);
  }
  return totals;
}

const top = (totals, count) =>
  [...totals]
    .filter(([, micros]) => micros >= 500)
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([name, micros]) => `${name} ${(micros / 1000).toFixed(1)}`)
    .join(', ');

/**
 * The long tasks of the page's load (observed ≥ 12.5 ms), each with its start after navigation, its
 * observed length, what it blocks under the 4x slowdown, and its time by kind and by sampled source (ms).
 */
export function longTasks(trace, origin, dist) {
  const events = trace.traceEvents ?? trace;
  const main = pageMainThread(events, origin);
  const navigation = events.find(
    (e) => e.name === 'navigationStart' && e.pid === main.pid && e.args?.data?.documentLoaderURL?.startsWith(origin),
  );
  const onMain = events
    .filter((e) => e.ph === 'X' && e.pid === main.pid && e.tid === main.tid && e.dur > 0)
    .sort((a, b) => a.ts - b.ts || b.dur - a.dur);
  const sampled = samples(events, main);
  const toSource = sourceMapper(dist);
  return onMain
    .filter((e) => e.name === 'RunTask' && e.dur >= LONG_TASK_MS * 1000 && e.ts >= (navigation?.ts ?? 0))
    .map((task) => {
      const end = task.ts + task.dur;
      const nested = onMain.filter((e) => e !== task && e.ts >= task.ts && e.ts + e.dur <= end);
      const bySource = new Map();
      const byLine = new Map();
      let previous = task.ts;
      for (const [time, frame] of sampled) {
        if (time < task.ts || time > end) continue;
        const { bucket, line } = frame ? toSource(frame) : { bucket: '(unknown)', line: '(unknown)' };
        bySource.set(bucket, (bySource.get(bucket) ?? 0) + (time - previous));
        byLine.set(line, (byLine.get(line) ?? 0) + (time - previous));
        previous = time;
      }
      const ms = task.dur / 1000;
      return {
        'at ms': Math.round((task.ts - (navigation?.ts ?? task.ts)) / 1000),
        'observed ms': ms.toFixed(1),
        'blocks ms (4x)': Math.max(0, Math.round(ms * CPU_SLOWDOWN - 50)),
        'by kind (ms)': top(selfTimeByKind(task, nested), 4),
        'by source (ms)': top(bySource, 5),
        ...(LINES ? { 'by line (ms)': top(byLine, 6) } : {}),
      };
    });
}

/** The page's largest-contentful-paint candidates in the trace: when each was painted, its kind and size. */
export function lcpCandidates(trace, origin) {
  const events = trace.traceEvents ?? trace;
  const main = pageMainThread(events, origin);
  const navigation = events.find(
    (e) => e.name === 'navigationStart' && e.pid === main.pid && e.args?.data?.documentLoaderURL?.startsWith(origin),
  );
  return events
    .filter((e) => e.name === 'largestContentfulPaint::Candidate' && e.pid === main.pid)
    .map((e) => ({
      'at ms': Math.round((e.ts - (navigation?.ts ?? e.ts)) / 1000),
      type: e.args.data.type,
      size: e.args.data.size,
      node: e.args.data.nodeId,
    }));
}
