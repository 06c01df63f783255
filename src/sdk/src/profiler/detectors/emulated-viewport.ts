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
    const ratio = devicePixelRatio || 1;
    const gap = (outer: number, inner: number) => Math.min(outer - inner, outer - inner * ratio);
    const widthGap = gap(outerWidth, innerWidth);
    const heightGap = gap(outerHeight, innerHeight);
    // A window of 0×0 is a browser that does not report one (some embedded views): nothing to compare.
    if (outerWidth === 0 || outerHeight === 0) return false;
    const windowSmallerThanPage =
      Math.max(innerWidth - outerWidth, innerWidth * ratio - outerWidth) > SLACK &&
      Math.max(innerHeight - outerHeight, innerHeight * ratio - outerHeight) > SLACK;
    const windowLargerThanScreen =
      outerWidth > screen.width + SLACK || outerHeight > screen.height + SLACK;
    const pageShrunkInWindow = widthGap >= MIN_SIDE_GAP && heightGap >= MAX_UI_HEIGHT;
    return windowSmallerThanPage || windowLargerThanScreen || pageShrunkInWindow;
  },
};
