import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

export type Engine = 'chromium' | 'firefox' | 'webkit';

export const BINARIES = {
  chromium: '/usr/bin/chromium',
  firefox: '/usr/bin/firefox-esr',
  webkit: '/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser',
} as const;

/** What a buyer may change about an ordinary browser start. */
export interface HumanVariant {
  windowSize?: [number, number];
  /** TZ and LANG of the browser's environment. */
  locale?: { tz: string; lang: string };
  privateWindow?: boolean;
  cookiesBlocked?: boolean;
}

// Debian's Chromium as root needs --no-sandbox; the others keep it off Google's services (no internet here).
// None of them is an automation switch.
export const CHROMIUM_FLAGS = [
  '--no-sandbox',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--no-default-browser-check',
];

// A fresh Firefox profile as its first start leaves it, minus the calls home this machine cannot make.
const FIREFOX_PREFS: Record<string, string | number | boolean> = {
  'browser.shell.checkDefaultBrowser': false,
  'browser.aboutwelcome.enabled': false,
  'datareporting.policy.dataSubmissionEnabled': false,
  'toolkit.telemetry.reportingpolicy.firstRun': false,
  'browser.startup.homepage_override.mstone': 'ignore',
  'app.update.disabledForTesting': true,
};

function prepareProfile(engine: Engine, profile: string, variant: HumanVariant) {
  fs.mkdirSync(profile, { recursive: true });
  if (engine === 'firefox') {
    const prefs = { ...FIREFOX_PREFS, ...(variant.cookiesBlocked && { 'network.cookie.cookieBehavior': 2 }) };
    const lines = Object.entries(prefs).map(
      ([name, value]) => `user_pref(${JSON.stringify(name)}, ${JSON.stringify(value)});`,
    );
    fs.writeFileSync(path.join(profile, 'user.js'), `${lines.join('\n')}\n`);
  }
  if (engine === 'chromium' && variant.cookiesBlocked) {
    fs.mkdirSync(path.join(profile, 'Default'), { recursive: true });
    const preferences = { profile: { default_content_setting_values: { cookies: 2 } } };
    fs.writeFileSync(path.join(profile, 'Default/Preferences'), JSON.stringify(preferences));
  }
}

function commandLine(engine: Engine, profile: string, url: string, variant: HumanVariant): string[] {
  const [width, height] = variant.windowSize ?? [];
  switch (engine) {
    case 'chromium':
      return [
        ...CHROMIUM_FLAGS,
        `--user-data-dir=${profile}`,
        ...(width ? [`--window-size=${width},${height}`] : []),
        ...(variant.locale ? [`--lang=${variant.locale.lang.split('.')[0]!.replace('_', '-')}`] : []),
        ...(variant.privateWindow ? ['--incognito'] : []),
        url,
      ];
    case 'firefox':
      return [
        '--no-remote',
        '--profile',
        profile,
        ...(width ? ['--width', String(width), '--height', String(height)] : []),
        ...(variant.privateWindow ? ['--private-window'] : []),
        url,
      ];
    case 'webkit':
      // MiniBrowser has no window-size option: the window-size variant runs it full screen.
      return [
        ...(width ? ['--full-screen'] : []),
        ...(variant.locale ? [`--time-zone=${variant.locale.tz}`] : []),
        ...(variant.privateWindow ? ['--private'] : []),
        ...(variant.cookiesBlocked ? ['--cookies-policy=never'] : []),
        url,
      ];
  }
}

/**
 * Starts `engine` the way a person would (no driver, no automation switch) on `display` with `profile` as its
 * profile folder, opening `url`. `close()` ends it as a window manager's close would (SIGTERM), so the profile
 * is saved for a restart.
 */
export function launchHuman(
  engine: Engine,
  options: { display: string; profile: string; url: string; variant?: HumanVariant },
): { close: () => Promise<void> } {
  const variant = options.variant ?? {};
  prepareProfile(engine, options.profile, variant);
  const env: NodeJS.ProcessEnv = { ...process.env, DISPLAY: options.display };
  if (variant.locale)
    Object.assign(env, {
      TZ: variant.locale.tz,
      LANG: variant.locale.lang,
      LANGUAGE: variant.locale.lang.split('.')[0],
    });
  // WebKitGTK keeps its data in the XDG folders: a profile is a set of them.
  if (engine === 'webkit')
    for (const kind of ['DATA', 'CACHE', 'CONFIG'])
      env[`XDG_${kind}_HOME`] = path.join(options.profile, kind.toLowerCase());
  const child: ChildProcess = spawn(
    BINARIES[engine],
    commandLine(engine, options.profile, options.url, variant),
    {
      env,
      stdio: 'ignore',
      detached: true,
    },
  );
  return {
    close: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      // The whole process group: Chromium's wrapper script, its zygote and renderers, Firefox's content processes.
      process.kill(-child.pid!, 'SIGTERM');
      const killed = setTimeout(() => child.pid && process.kill(-child.pid, 'SIGKILL'), 5_000);
      await exited;
      clearTimeout(killed);
      // Children that outlive the main process (a renderer, a content process) go with the group.
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // Already gone.
      }
    },
  };
}
