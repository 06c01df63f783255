import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'patchright-core';
import { BINARIES, CHROMIUM_FLAGS } from '../humans.js';
import { type DrivenBrowser, fillWithPlaywright } from './input.js';

/**
 * patchright-core (Playwright patched against detection; nothing downloaded at install) in the configuration
 * its README calls undetectable: a persistent context, headful, `viewport: null`, no extra headers, its own
 * trimmed Chromium switches (it already drops `--enable-automation` and the IPC flooding switch). Input through
 * Playwright's locator API, `click` + `pressSequentially` with a delay.
 */
export async function launchPatchright(options: {
  url: string;
  env: Record<string, string>;
}): Promise<DrivenBrowser> {
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'vigia-patchright-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: BINARIES.chromium,
    headless: false,
    viewport: null,
    args: CHROMIUM_FLAGS,
    env: options.env,
  });
  const page = context.pages()[0] ?? (await context.newPage());
  await page.goto(options.url);
  return {
    fill: (checkout) => fillWithPlaywright(page, checkout, 'pressSequentially'),
    close: async () => {
      await context.close();
      fs.rmSync(profile, { recursive: true, force: true });
    },
  };
}
