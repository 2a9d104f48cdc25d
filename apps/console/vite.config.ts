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
        // Libraries change less often than the app: separate, long-cached chunks.
        codeSplitting: {
          groups: [
            { name: 'react', test: /node_modules[\\/](react|react-dom|scheduler|react-router)[\\/]/, priority: 3 },
            { name: 'ui', test: /node_modules[\\/](react-bootstrap|@restart|@popperjs|dom-helpers)[\\/]/, priority: 2 },
            // Icons (imported raw, a few hundred bytes each) stay with the screens that draw them.
            { name: 'vendor', test: /node_modules[\\/](?!bootstrap-icons[\\/])/, priority: 1 },
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
