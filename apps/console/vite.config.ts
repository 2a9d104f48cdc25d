import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { precompress } from './build/precompress.ts';

const API_SERVER = 'http://127.0.0.1:8080';

export default defineConfig({
  plugins: [react(), precompress()],
  // Relative asset URLs: the console can be served from any path or a CDN.
  base: './',
  // `@/…` is src/… (tsconfig.json "paths").
  resolve: { tsconfigPaths: true },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: true,
    rolldownOptions: {
      output: {
        // React and the router change less often than the app and every page needs them: one long-cached
        // chunk. Every other library goes with the screens that use it (a catch-all vendor chunk would be
        // loaded by the first page whatever it shows).
        codeSplitting: {
          groups: [{ name: 'react', test: /node_modules[\\/](react|react-dom|scheduler|react-router)[\\/]/ }],
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
