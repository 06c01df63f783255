// @vitest-environment happy-dom
// @vitest-environment-options { "url": "https://shop.example.com/checkout?step=2" }
import { afterEach, describe, expect, it, vi } from 'vitest';
import { collectBrowserData, cookiesAccepted } from '../../src/sdk/src/browser-data.js';

const FIREFOX = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0';

afterEach(() => {
  vi.restoreAllMocks();
});

describe('collectBrowserData', () => {
  it('reads the user agent, its browser type, the host name and cookie support', () => {
    vi.spyOn(navigator, 'userAgent', 'get').mockReturnValue(FIREFOX);
    expect(collectBrowserData()).toEqual({
      ip_address: null,
      type: 'Firefox',
      host_name: 'shop.example.com',
      cookies_accepted: true,
      user_agent: FIREFOX,
    });
  });

  it('cuts a user agent longer than the 1024 characters the service stores', () => {
    vi.spyOn(navigator, 'userAgent', 'get').mockReturnValue(`${FIREFOX} ${'x'.repeat(2000)}`);
    const data = collectBrowserData();
    expect(data.user_agent).toHaveLength(1024);
    expect(data.type).toBe('Firefox');
  });
});

describe('cookiesAccepted', () => {
  it('writes a probe cookie, reads it back and removes it', () => {
    // biome-ignore lint/suspicious/noDocumentCookie: the page's own cookie, which the probe must leave alone
    document.cookie = 'merchant_cart=42; path=/';
    const writes: string[] = [];
    let proto = Object.getPrototypeOf(document);
    while (!Object.getOwnPropertyDescriptor(proto, 'cookie')) proto = Object.getPrototypeOf(proto);
    const descriptor = Object.getOwnPropertyDescriptor(proto, 'cookie')!;
    vi.spyOn(document, 'cookie', 'set').mockImplementation((value: string) => {
      writes.push(value);
      descriptor.set!.call(document, value);
    });
    expect(cookiesAccepted()).toBe(true);
    expect(writes).toHaveLength(2);
    expect(writes[0]).toMatch(/^__vigia_probe=1;/);
    expect(writes[1]).toMatch(/max-age=-1/);
    // Nothing of the probe remains; the page's own cookies are untouched.
    expect(document.cookie).toBe('merchant_cart=42');
  });

  it('is false when the browser says cookies are disabled, without touching document.cookie', () => {
    vi.spyOn(navigator, 'cookieEnabled', 'get').mockReturnValue(false);
    const set = vi.spyOn(document, 'cookie', 'set');
    expect(cookiesAccepted()).toBe(false);
    expect(set).not.toHaveBeenCalled();
  });

  it('is false when a written cookie does not come back (blocked by policy or extension)', () => {
    vi.spyOn(document, 'cookie', 'set').mockImplementation(() => {});
    vi.spyOn(document, 'cookie', 'get').mockReturnValue('');
    expect(cookiesAccepted()).toBe(false);
  });

  it('is false when document.cookie throws (sandboxed document)', () => {
    vi.spyOn(document, 'cookie', 'get').mockImplementation(() => {
      throw new DOMException('The document is sandboxed', 'SecurityError');
    });
    expect(cookiesAccepted()).toBe(false);
  });
});
