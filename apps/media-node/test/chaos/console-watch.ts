import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Node, StreamInput } from '@streamcloud/contract';
import { type Browser, chromium, type Page } from 'playwright-core';
import { ADMIN, type ControlPlane, ROOT, sleep } from '../harness.js';
import { seconds } from './world.js';

/** How often the console's node list and stream dashboard read the API again (DASHBOARD_POLL_MS, NODES_POLL_MS). */
const CONSOLE_POLL_MS = 5_000;
/** Beyond the poll: the read's own time on a loaded API, the page's render, and this watch's sampling. */
const SLACK_MS = 1_500;
/** How often the watch reads the API's state and what the pages show. */
const SAMPLE_MS = 300;

/** What one side (the API, or the console's page) said of one thing, each time it changed, and when. */
type Timeline = Array<{ at: number; value: string }>;

/** One thing the console shows: the node's reporting state, or the stream's status. */
interface Watched {
  what: string;
  /** States the page must have shown at some time (a fault long enough to show them is in the run). */
  mustShow: string[];
  api: Timeline;
  page: Timeline;
  readApi(): Promise<string | null>;
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
    const watched = [
      watching(`node ${node.name}`, outagesShow ? ['Offline'] : [], {
        readApi: async () => {
          const answer = await plane.api<Node>('GET', `/nodes/${node.id}`);
          return answer.status === 200 ? REPORTING_SHOWN[answer.body.reporting] : null;
        },
        readPage: async () => {
          const row = await shown(nodes, (page) => page.getByRole('row').filter({ hasText: node.name }));
          return row === null ? null : (/(Offline|Reporting|Never reported)/.exec(row)?.[1] ?? null);
        },
      }),
      watching(`stream ${stream.caption}`, outagesShow ? ['Error'] : [], {
        readApi: async () => {
          const answer = await plane.api<StreamInput>('GET', `/inputs/${stream.id}`);
          return answer.status === 200 ? answer.body.status : null;
        },
        readPage: () => shown(dashboard, (page) => page.getByTestId('stream-status')),
      }),
    ];
    let stopped = false;
    const sampling = (async () => {
      while (!stopped) {
        await Promise.all(
          watched.map(async (each) => {
            note(each.api, await each.readApi().catch(() => null));
            note(each.page, await each.readPage());
          }),
        );
        await sleep(SAMPLE_MS);
      }
    })();
    return {
      judge: () => judge(watched),
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

/** A thing to watch, with its empty timelines. */
const watching = (what: string, mustShow: string[], read: Pick<Watched, 'readApi' | 'readPage'>): Watched => ({
  what,
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

/** Adds a value to a timeline when it differs from the last one (an unknown value, null, is not one). */
function note(timeline: Timeline, value: string | null | undefined): void {
  if (value === null || value === undefined || timeline.at(-1)?.value === value) return;
  timeline.push({ at: Date.now(), value });
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
 * read of the API that showed it to the first sample of the page that did (a page may show it a sample earlier).
 */
function judge(watched: Watched[]): { lines: string[]; failures: string[] } {
  const bound = CONSOLE_POLL_MS + SLACK_MS;
  const lines: string[] = [];
  const failures: string[] = [];
  for (const each of watched) {
    const lags: string[] = [];
    each.api.forEach((state, index) => {
      const until = each.api[index + 1]?.at ?? Date.now();
      const held = until - state.at >= bound;
      const shownAt = shownFrom(each.page, state);
      if (shownAt !== undefined && shownAt <= state.at + bound) {
        lags.push(`${state.value} ${seconds(Math.max(0, shownAt - state.at))}`);
      } else if (held) {
        const late = shownAt === undefined ? 'never' : `after ${seconds(shownAt - state.at)}`;
        lags.push(`${state.value} ${late}`);
        failures.push(
          `${each.what}: the API said ${state.value} for ${seconds(until - state.at)}; the console showed it ${late}`,
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
    ],
    failures,
  };
}
