import type { Detector } from './types.js';

// Browser UI (tabs, toolbar, bookmarks and info bars) is well under this tall; a side panel alone narrows
// the page, a bottom bar alone shortens it, so only a page smaller than its window on both axes counts.
const MAX_UI_HEIGHT = 300;
const MIN_SIDE_GAP = 100;
// Window borders and rounding of fractional zoom levels.
const SLACK = 16;

/**
 * A driver's emulated viewport (Puppeteer's default 800×600, Playwright's 1280×720) replaces the page size
 * but not the window around it: the window is smaller than its page, larger than the screen, or far larger
 * than its page on both axes. Zoom scales the page by `devicePixelRatio` and a HiDPI screen does not, so a
 * gap counts only when it holds both with and without that scale.
 */
export const emulatedViewport: Detector = {
  name: 'emulated_viewport',
  detect({ innerWidth, innerHeight, outerWidth, outerHeight, devicePixelRatio, screen }) {
    // A window of 0×0 is a browser that does not report one (some embedded views): nothing to compare.
    if (outerWidth === 0 || outerHeight === 0) return false;
    const ratio = devicePixelRatio || 1;
    // How much larger the window is than the page, read both as zoomed and as unzoomed: the smaller reading.
    const gap = (outer: number, inner: number) => Math.min(outer - inner, outer - inner * ratio);
    // How much larger the page is than the window, read the same way.
    const excess = (outer: number, inner: number) => Math.min(inner - outer, inner * ratio - outer);
    const windowSmallerThanPage =
      excess(outerWidth, innerWidth) > SLACK && excess(outerHeight, innerHeight) > SLACK;
    const windowLargerThanScreen = outerWidth > screen.width + SLACK || outerHeight > screen.height + SLACK;
    const pageShrunkInWindow =
      gap(outerWidth, innerWidth) >= MIN_SIDE_GAP && gap(outerHeight, innerHeight) >= MAX_UI_HEIGHT;
    return windowSmallerThanPage || windowLargerThanScreen || pageShrunkInWindow;
  },
};
