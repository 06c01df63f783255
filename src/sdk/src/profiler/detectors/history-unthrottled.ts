import type { Detector } from './types.js';

// Chromium ignores a frame's history updates past 200 in 10 seconds (its IPC flooding protection). Drivers
// start it with --disable-ipc-flooding-protection (Puppeteer and Playwright by default, stealth setups
// included), which lifts the limit. One call past the limit tells the two apart.
const LIMIT = 200;

/**
 * Chromium that does not throttle history updates: a driver's launch flag, visible without `navigator.webdriver`.
 * Runs in a hidden same-origin frame, removed at once, so the page's own history and its limit are untouched.
 * Only Chromium (`window.chrome`) is judged: other engines throttle differently (WebKit throws at 100).
 */
export const historyUnthrottled: Detector = {
  name: 'history_unthrottled',
  detect(window) {
    if (typeof (window as Window & { chrome?: unknown }).chrome !== 'object') return false;
    const frame = window.document.createElement('iframe');
    frame.style.display = 'none';
    window.document.body.appendChild(frame);
    try {
      const history = frame.contentWindow!.history;
      for (let i = 0; i <= LIMIT; i++) history.replaceState({ i }, '');
      return (history.state as { i?: number } | null)?.i === LIMIT;
    } finally {
      frame.remove();
    }
  },
};
