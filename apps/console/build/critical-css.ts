/// <reference types="node" />
import Beasties from 'beasties';
import type { Plugin } from 'vite';

/** Where the style sheets are read from: the bundle, under a made-up root (nothing is on disk yet). */
const BUNDLE_ROOT = '/bundle/';

/**
 * Inlines in index.html the CSS rules its pre-rendered screens use (build/prerender.ts) and moves the
 * style sheet links to the end of the body (issue 21: LCP). A style sheet in <head> holds back the first
 * paint until it has arrived (Bootstrap: ~30 KB gzip, a few hundred ms on slow 4G); with the screens' own
 * rules inline, the pre-rendered screen is drawn as soon as the HTML is in. Content before a style sheet in
 * the body is drawn without it, and the app's scripts (modules, run once the document is parsed) still run
 * after it has arrived, so the app's screens never show unstyled. The style sheet is left whole (every
 * other screen needs it). The rules that show the address's copy match an attribute boot.js sets before
 * the first paint, not in the HTML: they are kept whatever the HTML holds.
 */
export function criticalCss(): Plugin {
  return {
    name: 'streamcloud-critical-css',
    apply: 'build',
    enforce: 'post',
    async generateBundle(_options, bundle) {
      const page = bundle['index.html'];
      if (page?.type !== 'asset') return;
      const styleSheets = new Map<string, string>();
      for (const file of Object.values(bundle)) {
        if (file.type === 'asset' && file.fileName.endsWith('.css')) {
          styleSheets.set(`${BUNDLE_ROOT}${file.fileName}`, String(file.source));
        }
      }
      const beasties = new (class extends Beasties {
        override readFile(filename: string): string {
          const css = styleSheets.get(filename);
          if (css === undefined) throw new Error(`critical CSS: index.html links ${filename}, not in the bundle`);
          return css;
        }
      })({
        path: BUNDLE_ROOT,
        preload: 'body',
        pruneSource: false,
        inlineFonts: false,
        preloadFonts: false,
        fonts: false,
        keyframes: 'critical',
        allowRules: [/\[data-path=/, /^\.prerendered$/],
        logLevel: 'warn',
      });
      page.source = startAfterFirstPaint(await beasties.process(String(page.source)));
    },
  };
}

/** The app's entry script, its module preloads and its style sheets, as Vite and Beasties wrote them. */
const APP_START = /\s*<(?:script type="module"[^>]*><\/script>|link rel="(?:modulepreload|stylesheet)"[^>]*>)/g;

/**
 * Moves the app's scripts and style sheets into <template id="app-start">, which public/boot.js puts in the
 * page once the pre-rendered screen has been painted. Seen by the browser's preload scanner they are
 * fetched alongside the HTML, and Lighthouse then counts them before the first paint (its simulated slow
 * 4G puts the first paint after them: the LCP race in docs/decisions.md).
 */
export function startAfterFirstPaint(html: string): string {
  // The entry script comes first in the HTML: the style sheet and the preloads are put in before it.
  const start = html.match(APP_START)?.map((tag) => tag.trim()) ?? [];
  if (!start.some((tag) => tag.startsWith('<script'))) throw new Error('critical CSS: no entry script in index.html');
  return html
    .replace(APP_START, '')
    .replace('</body>', `<template id="app-start">${[...start].reverse().join('')}</template>\n  </body>`);
}
