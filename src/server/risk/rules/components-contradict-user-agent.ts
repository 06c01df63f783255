import type { BrowserEngine } from '../../fraud/user-agent.js';
import { deviceOf, type OsFamily, osFamily, sameOsFamily, sessionUserAgent } from '../device.js';
import { riskRule } from '../types.js';

/** `navigator.vendor` of each engine: a constant of the engine, whatever the browser built on it. */
const VENDOR: Readonly<Record<BrowserEngine, string>> = {
  Blink: 'Google Inc.',
  Gecko: '',
  WebKit: 'Apple Computer, Inc.',
};

/** Which engines implement an API the profiler reads: `navigator.userAgentData`, `.oscpu`, `.deviceMemory`. */
const ONLY_IN: Readonly<Record<string, BrowserEngine>> = {
  userAgentData: 'Blink',
  osCpu: 'Gecko',
  deviceMemory: 'Blink',
};

const present = (value: unknown) => value !== undefined && value !== null;

function brandsOf(userAgentData: unknown): string[] | null {
  const brands = (userAgentData as { brands?: unknown } | null)?.brands;
  return Array.isArray(brands) && brands.length > 0 ? brands.map(String) : null;
}

/** Each contradiction between the components and the claimed engine/OS, by name (empty when coherent). */
export function contradictions(
  components: Readonly<Record<string, unknown>>,
  claimed: { engine: BrowserEngine | null; os: OsFamily | null },
): string[] {
  const found: string[] = [];
  const { engine, os } = claimed;
  if (engine) {
    if (typeof components.vendor === 'string' && components.vendor !== VENDOR[engine]) found.push('vendor');
    for (const [key, only] of Object.entries(ONLY_IN)) {
      if (only !== engine && present(components[key])) found.push(key);
    }
    const brands = brandsOf(components.userAgentData);
    // Every Blink browser lists the Chromium brand (the profiler drops the GREASE ones).
    if (engine === 'Blink' && brands && !brands.includes('Chromium')) found.push('userAgentData.brands');
  }
  if (os) {
    const platform = osFamily(typeof components.platform === 'string' ? components.platform : null);
    if (platform && !sameOsFamily(platform, os)) found.push('platform');
    const hinted = (components.userAgentData as { platform?: unknown } | null)?.platform;
    const hintedOs = osFamily(typeof hinted === 'string' ? hinted : null);
    if (hintedOs && !sameOsFamily(hintedOs, os)) found.push('userAgentData.platform');
  }
  return found;
}

export const componentsContradictUserAgent = riskRule({
  code: 'COMPONENTS_CONTRADICT_USER_AGENT',
  description:
    "The profiler's components contradict the user agent the service saw: another engine's navigator.vendor, an " +
    'API the claimed engine lacks (userAgentData outside Blink, oscpu outside Gecko, deviceMemory outside ' +
    'Blink), client-hint brands without Chromium, or a platform of another operating system.',
  applies: ({ session }) => {
    const components = session.signals?.profiler?.components;
    if (!components) return false;
    return contradictions(components, deviceOf(sessionUserAgent(session))).length > 0;
  },
});
