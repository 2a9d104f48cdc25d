import { describe, expect, it } from 'vitest';
import { startAfterFirstPaint } from './critical-css';

const page = `<html><head>
    <script src="./boot.js"></script>
    <script type="module" crossorigin src="./assets/index-1.js"></script>
    <link rel="modulepreload" crossorigin href="./assets/react-2.js">
    <style>.prerendered{display:none}</style>
  </head><body><div class="prerendered"></div>
  <link rel="stylesheet" crossorigin href="./assets/index-3.css"></body></html>`;

describe('starting the app after the first paint', () => {
  it('moves the entry script, its preloads and the style sheet into the app-start template, the script last', () => {
    const html = startAfterFirstPaint(page);
    expect(html).toContain('<script src="./boot.js"></script>');
    expect(html).toContain('<style>.prerendered{display:none}</style>');
    const [before, template] = html.split('<template id="app-start">');
    expect(before).not.toMatch(/index-1|react-2|index-3/);
    expect(template).toBe(
      '<link rel="stylesheet" crossorigin href="./assets/index-3.css">' +
        '<link rel="modulepreload" crossorigin href="./assets/react-2.js">' +
        '<script type="module" crossorigin src="./assets/index-1.js"></script></template>\n  </body></html>',
    );
  });

  it('fails the build when there is no entry script to start', () => {
    expect(() => startAfterFirstPaint('<html><body></body></html>')).toThrow(/no entry script/);
  });
});
