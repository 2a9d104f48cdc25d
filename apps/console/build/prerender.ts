/// <reference types="node" />
import react from '@vitejs/plugin-react';
import { type Plugin, runnerImport } from 'vite';

/** Where index.html takes a pre-rendered screen: `<!-- prerendered /path -->`. */
const MARKER = /<!-- prerendered (\S+) -->/g;

/**
 * Style sheets imported by the screens' modules are left out while rendering them: the build's own style
 * sheets carry them (Vite's module runner cannot load CSS).
 */
const withoutStyles: Plugin = {
  name: 'streamcloud-prerender-without-styles',
  enforce: 'pre',
  resolveId: (id) => (id.endsWith('.css') ? '\0prerender-style' : null),
  load: (id) => (id === '\0prerender-style' ? 'export default "";' : null),
};

/** React puts a page's <title> first; index.html keeps its own (it is also every other page's). */
const TITLE = /<title>[^<]*<\/title>/g;

/**
 * Renders the likely first screens (app/prerender) into index.html at build time, so a phone shows one as
 * soon as the HTML and the style sheet have arrived instead of after the scripts (issue 21: LCP). The module
 * is loaded with Vite's module runner (the app's TypeScript, `@/` paths and `?raw` imports) and rendered
 * with react-dom/server.
 */
export function prerender(): Plugin {
  let root = process.cwd();
  return {
    name: 'streamcloud-prerender',
    apply: 'build',
    configResolved(config) {
      root = config.root;
    },
    async transformIndexHtml(html) {
      const { module } = await runnerImport<typeof import('../src/app/prerender/prerender.tsx')>(
        '/src/app/prerender/prerender.tsx',
        {
          configFile: false,
          root,
          plugins: [withoutStyles, react()],
          resolve: { tsconfigPaths: true },
          logLevel: 'warn',
        },
      );
      return html.replace(MARKER, (marker, path: string) => {
        const render = module.PRERENDERED_SCREENS[path];
        if (!render) throw new Error(`index.html asks for ${marker}: no such pre-rendered screen`);
        return render().replace(TITLE, '');
      });
    },
  };
}
