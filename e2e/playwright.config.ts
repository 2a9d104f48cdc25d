import { defineConfig } from '@playwright/test';
// Shared with the benchmarks that drive Chromium (bench/lib.mjs).
import chromiumArgs from './chromium-args.json' with { type: 'json' };

/**
 * End to end against a running server (scripts/test.mjs starts one with a fresh database and
 * passes its address in E2E_BASE_URL). The browser is Debian's Chromium, never a downloaded one.
 */
export default defineConfig({
  testDir: './tests',
  outputDir: './test-results',
  workers: 1,
  forbidOnly: true,
  retries: 0,
  timeout: 30_000,
  expect: { timeout: 10_000 },
  reporter: [['list']],
  use: {
    baseURL: process.env.E2E_BASE_URL ?? 'http://127.0.0.1:8080',
    browserName: 'chromium',
    viewport: { width: 1280, height: 800 },
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath: '/usr/bin/chromium',
      args: chromiumArgs,
    },
  },
});
