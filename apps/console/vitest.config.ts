import { defineConfig, mergeConfig } from 'vitest/config';
import viteConfig from './vite.config.ts';

export default mergeConfig(
  viteConfig,
  defineConfig({
    test: {
      environment: 'happy-dom',
      include: ['src/**/*.test.{ts,tsx}', 'build/**/*.test.ts'],
      setupFiles: ['src/test/setup.ts'],
      // Screens render slowly under load: a test's whole time, above Testing Library's 5 s per wait (setup.ts).
      testTimeout: 20_000,
      restoreMocks: true,
      pool: 'threads',
      maxWorkers: 2,
    },
  }),
);
