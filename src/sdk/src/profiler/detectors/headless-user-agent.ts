import type { Detector } from './types.js';

/** Headless Chromium names itself in the user agent and its client hints unless the driver rewrites both. */
export const headlessUserAgent: Detector = {
  name: 'headless_user_agent',
  detect({ navigator }) {
    const hints = (navigator as Navigator & { userAgentData?: { brands?: { brand: string }[] } })
      .userAgentData;
    return (
      /HeadlessChrome/.test(navigator.userAgent) ||
      (hints?.brands ?? []).some(({ brand }) => /Headless/i.test(brand))
    );
  },
};
