import { createCursor } from 'ghost-cursor';
import type { Page as PuppeteerPage } from 'puppeteer-core';
import { type Checkout, entries } from '../buyers.js';

/** What a kit's driven browser can do: fill the lab's checkout and press Pay, then end. */
export interface DrivenBrowser {
  fill(checkout: Checkout): Promise<void>;
  close(): Promise<void>;
}

// The few Puppeteer page calls the lab uses: the kits forked from puppeteer-core (rebrowser) keep them.
interface PuppeteerLikePage {
  type(selector: string, text: string, options?: { delay?: number }): Promise<void>;
  click(selector: string): Promise<void>;
}

/**
 * Puppeteer's own input: `page.type` (keydown/keypress/keyup per character over CDP/BiDi) into each field and
 * `page.click` on Pay; with `ghostCursor`, ghost-cursor's curved, eased pointer path and click onto each field
 * first (the humanised pointer the kits point to), typing with a delay as its README shows.
 */
export async function fillWithPuppeteer(
  page: PuppeteerLikePage,
  checkout: Checkout,
  { ghostCursor = false }: { ghostCursor?: boolean } = {},
) {
  const cursor = ghostCursor ? createCursor(page as unknown as PuppeteerPage) : null;
  for (const [selector, text] of entries(checkout)) {
    if (cursor) await cursor.click(selector);
    await page.type(selector, text, cursor ? { delay: 120 } : {});
  }
  if (cursor) await cursor.click('#pay');
  else await page.click('#pay');
}

// The Playwright locator calls the lab uses, in every Playwright fork.
interface PlaywrightLikePage {
  locator(selector: string): {
    fill(text: string): Promise<void>;
    pressSequentially(text: string, options?: { delay?: number }): Promise<void>;
    click(): Promise<void>;
  };
}

/**
 * Playwright's own input: `locator.fill` (the value set through `insertText`, no key events) or, as a kit's
 * humanising advice goes, `click` then `pressSequentially` with a delay; `click` on Pay.
 */
export async function fillWithPlaywright(
  page: PlaywrightLikePage,
  checkout: Checkout,
  how: 'fill' | 'pressSequentially',
) {
  for (const [selector, text] of entries(checkout)) {
    const field = page.locator(selector);
    if (how === 'fill') await field.fill(text);
    else {
      await field.click();
      await field.pressSequentially(text, { delay: 100 });
    }
  }
  await page.locator('#pay').click();
}
