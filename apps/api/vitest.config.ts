import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // What another connection or process delivers (a NOTIFY, a webhook) may take seconds under CI's load,
    // beside the real-time suites: expect.poll waits up to 10 s (vitest's default, 1 s, is a flake).
    expect: { poll: { timeout: 10_000 } },
    // Two cores: one file per core, each with its own database.
    maxWorkers: 2,
    fileParallelism: true,
  },
});
