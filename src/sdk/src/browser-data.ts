import { type BrowserType, browserType } from './browser-type.js';

/** The body of `POST /v1/fraud/sessions`. */
export interface BrowserData {
  /** Always null at creation: the public IP lookup reports later, with the profiler's signals. */
  ip_address: string | null;
  type: BrowserType;
  host_name: string;
  cookies_accepted: boolean;
  user_agent: string;
}

/**
 * `navigator.cookieEnabled` says only what the user's settings allow in general; writing a cookie and
 * reading it back also catches sandboxed iframes, blocked third-party contexts and privacy extensions.
 * The probe cookie is removed at once.
 */
export function cookiesAccepted(doc: Document = document, nav: Navigator = navigator): boolean {
  if (!nav.cookieEnabled) return false;
  const name = '__vigia_probe';
  try {
    doc.cookie = `${name}=1; path=/; SameSite=Lax`;
    const stored = doc.cookie.split(/;\s*/).includes(`${name}=1`);
    // A max-age of zero or less deletes (RFC 6265 §5.2.2); -1, as a jar that compares the expiry with now
    // strictly (happy-dom) would keep a 0 until the next millisecond.
    doc.cookie = `${name}=; path=/; SameSite=Lax; max-age=-1`;
    return stored;
  } catch {
    // Reading document.cookie throws in sandboxed documents: cookies are not usable there.
    return false;
  }
}

export function collectBrowserData(): BrowserData {
  // The service stores at most 1024 characters; a longer (spoofed or extension-inflated) string is cut.
  const userAgent = navigator.userAgent.slice(0, 1024);
  return {
    ip_address: null,
    type: browserType(userAgent),
    host_name: location.hostname,
    cookies_accepted: cookiesAccepted(),
    user_agent: userAgent,
  };
}
