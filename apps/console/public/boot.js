// Runs before the page is first drawn (a classic script in <head>; the CSP allows no inline script): marks
// the path the address shows, so the style sheet shows that screen's pre-rendered copy, if index.html has
// one, until the app's code has arrived and replaced it (src/lib/prerendered.ts). Without a stored session
// every screen but the sign-in page leads to it, so that is the one shown.
(() => {
  const path = location.hash.replace(/^#/, '').split('?')[0] || '/';
  let session = false;
  try {
    // The key has a configurable prefix (config.json, not read yet): any `…current_token` counts.
    for (let i = 0; i < localStorage.length; i += 1) session ||= /current_token$/.test(localStorage.key(i) ?? '');
  } catch {
    // No storage (blocked): no session either.
  }
  document.documentElement.dataset.path = session || path === '/login' ? path : '/login';
})();

// Starts the app once the pre-rendered screen has been painted (build/critical-css.ts): its scripts and
// style sheet wait in <template id="app-start"> and are put in <head> as new elements (a template's are
// inert). A frame that never comes (a hidden tab draws none) does not hold the app back beyond 300 ms.
(() => {
  let started = false;
  const start = () => {
    const template = document.getElementById('app-start');
    if (started || !template) return;
    started = true;
    for (const tag of template.content.children) {
      const element = document.createElement(tag.localName);
      for (const { name, value } of tag.attributes) element.setAttribute(name, value);
      document.head.append(element);
    }
  };
  document.addEventListener('DOMContentLoaded', () => {
    setTimeout(start, 300);
    const copyShown = [...document.getElementsByClassName('prerendered')].some(
      (copy) => getComputedStyle(copy).display !== 'none',
    );
    // With a copy on screen, the paint's timing entry: it is queued once the frame is presented, whereas a
    // frame callback (and a task after it) runs before, and the app's requests then raced the first paint.
    // Without one (a screen with no copy), the next frame.
    if (
      copyShown &&
      typeof PerformanceObserver !== 'undefined' &&
      PerformanceObserver.supportedEntryTypes?.includes('paint')
    ) {
      new PerformanceObserver((_entries, observer) => {
        observer.disconnect();
        start();
      }).observe({ type: 'paint', buffered: true });
      return;
    }
    requestAnimationFrame(() => setTimeout(start, 0));
  });
})();
