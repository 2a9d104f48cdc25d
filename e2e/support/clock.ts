import type { Page } from '@playwright/test';

/** How often the console polls what nodes report (a stream's status, recordings, relays): the spec's 5 s. */
const CONSOLE_POLL_MS = 5_000;

/**
 * The page's clock runs as the real one but can jump: a spec installs it before opening the page, and after a
 * node's report jumps to the console's next poll rather than waiting up to 5 s for it.
 */
export const installPageClock = (page: Page) => page.clock.install();
export const toNextPoll = (page: Page) => page.clock.fastForward(CONSOLE_POLL_MS);
