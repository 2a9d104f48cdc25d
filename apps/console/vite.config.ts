import { sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { criticalCss } from './build/critical-css.ts';
import { firstScreenChunks } from './build/first-screen-chunks.ts';
import { precompress } from './build/precompress.ts';
import { prerender } from './build/prerender.ts';

const API_SERVER = 'http://127.0.0.1:8080';

/**
 * react-router's package sends every bundler its development build (its exports name no production
 * condition); its production build is the same code with the developer warnings off. The build takes that
 * one; tests and the development server keep the warnings.
 */
function reactRouterProduction(): Plugin {
  const production = fileURLToPath(import.meta.resolve('react-router')).replace(
    `${sep}development${sep}`,
    `${sep}production${sep}`,
  );
  return {
    name: 'react-router-production',
    apply: 'build',
    enforce: 'pre',
    resolveId: (source) => (source === 'react-router' ? production : null),
  };
}

export default defineConfig({
  plugins: [reactRouterProduction(), react(), prerender(), criticalCss(), precompress()],
  // Relative asset URLs: the console can be served from any path or a CDN.
  base: './',
  // `@/…` is src/… (tsconfig.json "paths").
  resolve: { tsconfigPaths: true },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: true,
    rolldownOptions: {
      // The console, and the embeddable player's page (/play/{outputId}): a second entry with its own small
      // bundle (src/play), none of the console's React app.
      input: {
        index: fileURLToPath(new URL('index.html', import.meta.url)),
        play: fileURLToPath(new URL('play.html', import.meta.url)),
      },
      output: {
        // React and the router change less often than the app and every page needs them: one long-cached
        // chunk. Every other library goes with the screens that use it (a catch-all vendor chunk would be
        // loaded by the first page whatever it shows).
        codeSplitting: {
          groups: [
            {
              name: 'react',
              test: /node_modules[\\/](react|react-dom|scheduler|react-router)[\\/]/,
              priority: 2,
            },
            // The first screens in a few files each rather than dozens (build/first-screen-chunks.ts).
            // A module's dependencies are placed by the same rule, not pulled in with it: those in the entry's
            // graph must stay there.
            { name: firstScreenChunks(), priority: 1, includeDependenciesRecursively: false },
          ],
        },
      },
    },
  },
  server: {
    host: '127.0.0.1',
    proxy: {
      '/api': API_SERVER,
      '/config.json': API_SERVER,
    },
  },
});
