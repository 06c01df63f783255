import { describeEnvironment, disagree } from './environment.js';
import { nativeForm, type Realm, readsAsNative, watchedNatives } from './natives.js';
import type { Detector } from './types.js';

/**
 * The page against a fresh same-origin iframe's window (hidden, removed at once). Kits patch the page before
 * its scripts run; a new frame starts with the engine's own navigator and natives, which they must reach
 * separately. Two ways to disagree: the frame describes another device, or the frame's own (unpatched)
 * `Function.prototype.toString` reads one of the page's watched natives as something else than a native —
 * a Proxy or a replacement the page's own toString was patched to hide.
 */
export const iframeMismatch: Detector = {
  name: 'iframe_mismatch',
  detect(window) {
    const frame = window.document.createElement('iframe');
    frame.style.display = 'none';
    window.document.body.appendChild(frame);
    try {
      const frameWindow = frame.contentWindow as Realm;
      const frameForm = nativeForm(frameWindow);
      return (
        // WebGL is left out: a patched getParameter already reads as patched through the frame's toString.
        disagree(describeEnvironment(window, false), describeEnvironment(frameWindow, false)) ||
        watchedNatives(window as Realm).some(([fn, name]) => !readsAsNative(frameForm, fn, name))
      );
    } finally {
      frame.remove();
    }
  },
};
