import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // One control plane for every file (it takes 10–25 s to start); each file runs its own media node.
    globalSetup: ['test/global-setup.ts'],
    // Media tests push real streams through ffmpeg and nginx: one file at a time on two cores.
    testTimeout: 60_000,
    hookTimeout: 90_000,
    fileParallelism: false,
    maxWorkers: 1,
  },
});
