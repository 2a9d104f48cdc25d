import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Node, StreamInput } from '@streamcloud/contract';
import { type Browser, chromium, type Page, type Request } from 'playwright-core';
import { ADMIN, type ControlPlane, ROOT, sleep } from '../harness.js';
import { seconds } from './world.js';

/** How often the console's node list and stream dashboard read the API again (DASHBOARD_POLL_MS, NODES_POLL_MS). */
const CONSOLE_POLL_MS = 5_000;
/** Beyond the poll: the read's own time on a loaded API, the page's render, and this watch's sampling. */
const SLACK_MS = 1_500;
/** How often the watch reads the API's state and what the pages show. */
const SAMPLE_MS = 300;

/** What one side (the API, or the console's page) said of one thing, each time it changed, and when (and whose answer). */
export type Timeline = Array<{ at: number; value: string; worker?: string }>;

/** The API's header naming the API_WORKERS process that answered (apps/api/src/app.ts, API_WORKER_HEADER). */
const WORKER_HEADER = 'x-api-worker';
/** At most this many of the pages' reads are kept (a full run makes ~1 500). */
const READS_KEPT = 20_000;

/** One read of the API a console page made, as Chromium saw it: when, how long it waited to be sent, its answer. */
export interface PageRead {
  path: string;
  at: number;
  /** From the page's asking to the request's sending (Chromium's queue: its 6 connections to the API's host). */
  queuedMs: number;
  ms: number;
  /** The status, or why no answer came. */
  answer: string;
  worker: string;
}

/** One thing the console shows: the node's reporting state, or the stream's status. */
export interface Watched {
  what: string;
  /** The API path whose answers the page shows it from. */
  path: string;
  /** States the page must have shown at some time (a fault long enough to show them is in the run). */
  mustShow: string[];
  api: Timeline;
  page: Timeline;
  readApi(): Promise<{ value: string; worker: string } | null>;
  readPage(): Promise<string | null>;
}

/** The console's word for each reporting state of a node (node-status-badges.tsx). */
const REPORTING_SHOWN: Record<Node['reporting'], string> = {
  Silent: 'Offline',
  Reporting: 'Reporting',
  NeverReported: 'Never reported',
};

/** Where the console is built (`npm test` builds it before the chaos run; `npm run chaos` too). */
const CONSOLE_INDEX = join(ROOT, 'apps/console/dist/index.html');

/**
 * The console as an operator watches the bad day, in Chromium: the node list and one stream's dashboard, signed in
 * as the admin, beside the API's own answers. Each state the API holds for longer than one of the console's polls
 * must show on the page within that poll (and a little slack): the node Offline while it is silent, the stream Error,
 * then Reporting and Ingestion again.
 */
export interface ConsoleWatch {
  /** The report's lines, and what failed (a state the page showed late, or never). */
  judge(): { lines: string[]; failures: string[] };
  close(): Promise<void>;
}

/** Null when the console is not built (the report then says so). */
export async function watchConsole(
  plane: ControlPlane,
  node: { id: string; name: string },
  stream: StreamInput,
  /** Whether the run's outages outlast the node's silence bound by more than a poll (the full run's do). */
  outagesShow: boolean,
): Promise<ConsoleWatch | null> {
  if (!existsSync(CONSOLE_INDEX)) return null;
  const args = JSON.parse(readFileSync(join(ROOT, 'e2e/chromium-args.json'), 'utf8')) as string[];
  const browser: Browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args });
  try {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const signIn = await context.newPage();
    await signIn.goto(`${plane.url}/#/login`);
    await signIn.getByLabel('Username').fill(ADMIN.username);
    await signIn.getByLabel('Password').fill(ADMIN.password);
    await signIn.getByRole('button', { name: 'Login' }).click();
    await signIn.getByText(/streams loaded/).waitFor();
    const nodes = signIn;
    await nodes.goto(`${plane.url}/#/nodes`);
    const dashboard = await context.newPage();
    await dashboard.goto(`${plane.url}/#/streams/view/${stream.id}`);
    const reads: PageRead[] = [];
    for (const page of [nodes, dashboard]) recordReads(page, reads);
    const watched = [
      watching(`node ${node.name}`, '/nodes', outagesShow ? ['Offline'] : [], {
        readApi: async () => {
          const answer = await readApi<Node>(plane, `/nodes/${node.id}`);
          return answer && { value: REPORTING_SHOWN[answer.body.reporting], worker: answer.worker };
        },
        readPage: async () => {
          const row = await shown(nodes, (page) => page.getByRole('row').filter({ hasText: node.name }));
          return row === null ? null : (/(Offline|Reporting|Never reported)/.exec(row)?.[1] ?? null);
        },
      }),
      watching(`stream ${stream.caption}`, `/inputs/${stream.id}`, outagesShow ? ['Error'] : [], {
        readApi: async () => {
          const answer = await readApi<StreamInput>(plane, `/inputs/${stream.id}`);
          return answer && { value: answer.body.status, worker: answer.worker };
        },
        readPage: () => shown(dashboard, (page) => page.getByTestId('stream-status')),
      }),
    ];
    let stopped = false;
    const sampling = (async () => {
      while (!stopped) {
        await sample(watched);
        await sleep(SAMPLE_MS);
      }
    })();
    return {
      judge: () => judge(watched, reads),
      async close() {
        if (stopped) return;
        stopped = true;
        await sampling;
        await browser.close();
      },
    };
  } catch (error) {
    await browser.close();
    throw error;
  }
}

/**
 * What the API's timeline holds while the API does not answer the run's read (503 while the database is away, a worker
 * killed under the read, no answer within 5 s): no state to show, and the end of the one before. The console cannot
 * read a state either while the API does not answer, so a state is held, and must be on the page, only while answered.
 */
export const NOT_ANSWERED = 'not answered';

/** Reads once what the API answers and what the pages show of each watched thing, and notes what changed. */
export async function sample(watched: Watched[]): Promise<void> {
  await Promise.all(
    watched.map(async (each) => {
      const answer = await each.readApi().catch(() => null);
      note(each.api, answer?.value ?? NOT_ANSWERED, answer?.worker);
      note(each.page, await each.readPage());
    }),
  );
}

/** A thing to watch, with its empty timelines. */
export const watching = (
  what: string,
  path: string,
  mustShow: string[],
  read: Pick<Watched, 'readApi' | 'readPage'>,
): Watched => ({
  what,
  path,
  mustShow,
  api: [],
  page: [],
  ...read,
});

/** The text of what `locate` finds on the page now, or null (not there yet, or the page is between reads). */
async function shown(page: Page, locate: (page: Page) => ReturnType<Page['getByTestId']>): Promise<string | null> {
  return locate(page)
    .first()
    .textContent({ timeout: 1000 })
    .then((text) => text?.trim() ?? null)
    .catch(() => null);
}

/** The API's answer to the run's own read (200 only), and which worker gave it. */
async function readApi<T>(plane: ControlPlane, path: string): Promise<{ body: T; worker: string } | null> {
  const response = await fetch(`${plane.url}/api/v1${path}`, {
    headers: { authorization: `Bearer ${plane.token}` },
    signal: AbortSignal.timeout(5_000),
  });
  if (response.status !== 200) {
    await response.body?.cancel();
    return null;
  }
  return { body: (await response.json()) as T, worker: response.headers.get(WORKER_HEADER) ?? '?' };
}

/**
 * Keeps every read of the API the page makes, from its asking (one never answered stays 'no answer yet'): its path,
 * its time in Chromium's queue and in all, its answer.
 */
function recordReads(page: Page, reads: PageRead[]): void {
  const open = new Map<Request, PageRead>();
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (!url.pathname.startsWith('/api/v1/') || reads.length >= READS_KEPT) return;
    const read = {
      path: url.pathname.slice('/api/v1'.length),
      at: Date.now(),
      queuedMs: -1,
      ms: -1,
      answer: 'no answer yet',
      worker: '?',
    };
    open.set(request, read);
    reads.push(read);
  });
  const settle = (request: Request, answer: string, worker: string) => {
    const read = open.get(request);
    if (!read) return;
    open.delete(request);
    const timing = request.timing();
    read.queuedMs = Math.round(timing.requestStart);
    read.ms = timing.responseEnd >= 0 ? Math.round(timing.responseEnd) : Date.now() - read.at;
    read.answer = answer;
    read.worker = worker;
  };
  page.on('requestfinished', async (request) => {
    const response = await request.response().catch(() => null);
    settle(request, String(response?.status() ?? '?'), response?.headers()[WORKER_HEADER] ?? '?');
  });
  page.on('requestfailed', (request) => settle(request, request.failure()?.errorText ?? 'failed', '?'));
}

/** Adds a value to a timeline when it differs from the last one (an unknown value, null, is not one). */
function note(timeline: Timeline, value: string | null | undefined, worker?: string): void {
  if (value === null || value === undefined || timeline.at(-1)?.value === value) return;
  timeline.push({ at: Date.now(), value, ...(worker ? { worker } : {}) });
}

/**
 * What the page asked of the API while it showed a state late: its reads of the watched path from a poll before the
 * API's change until the page showed it (each: when, from the change; its answer; its time, in Chromium's queue first;
 * which worker), and its other reads that took over a second then.
 */
function readsStory(reads: PageRead[], path: string, from: number, until: number): string {
  // Those under way then: asked before the page showed it, answered (or not) after a poll before the API's change.
  const during = reads.filter(
    (read) => read.at <= until && (read.ms < 0 || read.at + read.ms >= from - CONSOLE_POLL_MS),
  );
  const told = (read: PageRead) =>
    read.ms < 0
      ? `${seconds(read.at - from)} no answer (${Date.now() - read.at} ms on)`
      : `${seconds(read.at - from)} ${read.answer} in ${read.ms} ms (queued ${read.queuedMs} ms, worker ${read.worker})`;
  const own = during.filter((read) => read.path === path);
  const slow = during.filter((read) => read.path !== path && (read.ms > 1000 || read.ms < 0));
  return [
    `its reads of ${path}: ${own.map(told).join('; ') || 'none'}`,
    `its other reads over 1 s: ${slow.map((read) => `${read.path} ${told(read)}`).join('; ') || 'none'}`,
  ].join('; ');
}

/**
 * When the page showed `state` from its start on: at once if it showed it already (the state the API left came and
 * went unseen), else at the page's first change to it (a sample before the API's read at the earliest).
 */
function shownFrom(page: Timeline, state: Timeline[number]): number | undefined {
  const before = page.filter((seen) => seen.at <= state.at - SAMPLE_MS).at(-1);
  if (before?.value === state.value) return state.at;
  return page.find((seen) => seen.value === state.value && seen.at > state.at - SAMPLE_MS)?.at;
}

/**
 * Each state the API held for at least a poll and its slack must be on the page within them: its lag is from the first
 * read of the API that showed it to the first sample of the page that did (a page may show it a sample earlier). Held is
 * answered: a state ends where the API stops answering (NOT_ANSWERED), and one it answers again after is judged anew.
 */
export function judge(watched: Watched[], reads: PageRead[]): { lines: string[]; failures: string[] } {
  const bound = CONSOLE_POLL_MS + SLACK_MS;
  const lines: string[] = [];
  const failures: string[] = [];
  for (const each of watched) {
    const lags: string[] = [];
    each.api.forEach((state, index) => {
      if (state.value === NOT_ANSWERED) return;
      const until = each.api[index + 1]?.at ?? Date.now();
      const held = until - state.at >= bound;
      const shownAt = shownFrom(each.page, state);
      if (shownAt !== undefined && shownAt <= state.at + bound) {
        lags.push(`${state.value} ${seconds(Math.max(0, shownAt - state.at))}`);
      } else if (held) {
        const late = shownAt === undefined ? 'never' : `after ${seconds(shownAt - state.at)}`;
        lags.push(`${state.value} ${late}`);
        failures.push(
          `${each.what}: the API said ${state.value} for ${seconds(until - state.at)} (worker ${state.worker ?? '?'}); ` +
            `the console showed it ${late}; ${readsStory(reads, each.path, state.at, shownAt ?? until)}`,
        );
      }
    });
    for (const value of each.mustShow)
      if (!each.page.some((seen) => seen.value === value))
        failures.push(`${each.what}: the console never showed ${value}`);
    lines.push(`${each.what}: ${lags.join(', ') || 'no change'}`);
  }
  return {
    lines: [
      `Console in Chromium (each state on the page after the API's, bound ${seconds(bound)}): ${lines.join('; ')}.`,
      ...failures.map((failure) => `- ${failure}`),
    ],
    failures,
  };
}
