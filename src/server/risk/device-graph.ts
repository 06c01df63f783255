import type { Kysely } from 'kysely';
import { deriveKey, keyedHash } from '../core/keyed-hash.js';
import type { Database } from '../db/database.js';
import { preparedInsert } from '../db/prepared.js';
import type { FraudSession } from '../fraud/service.js';
import type { DeviceGraphTable } from './table.js';

/**
 * The profiler's components that feed FingerprintJS's visitor id and that the report carries (the SDK's
 * FINGERPRINT_KEYS, src/sdk/src/profiler/fingerprint.ts; BotD's are left out: the window size, the focus, the
 * round-trip time change between two visits of one browser). A genuine visitor id is a hash of every component,
 * these included, so one id always comes with the same values of these. The list is frozen: a key dropped here
 * or from the SDK changes every device's digest, and the window's returning devices would all look forged.
 * The test holds it to the SDK's list.
 */
export const STABLE_COMPONENTS = [
  'platform',
  'timezone',
  'languages',
  'screenResolution',
  'colorDepth',
  'hardwareConcurrency',
  'deviceMemory',
  'touchSupport',
  'vendor',
  'vendorFlavors',
  'osCpu',
  'architecture',
  'cookiesEnabled',
  'localStorage',
  'sessionStorage',
  'indexedDB',
  'pdfViewerEnabled',
  'dateTimeLocale',
  'userAgentData',
  'webGlBasics',
] as const;

/** JSON with every object's keys sorted: one text per value, whatever order the client wrote its keys in. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** The stable components of a report, as one canonical text; null when it carries none of them. */
export function stableComponentsText(components: Readonly<Record<string, unknown>>): string | null {
  const present = STABLE_COMPONENTS.filter((key) => Object.hasOwn(components, key));
  if (present.length === 0) return null;
  return canonicalJson(Object.fromEntries(present.map((key) => [key, components[key]])));
}

/** One charge's place in the graph: every value a keyed hash. */
export type DeviceGraphEntry = Omit<DeviceGraphTable, 'created_at'>;

/**
 * Keyed hashes of the graph (HMAC-SHA256 under a key derived from the card-hash key, one domain per field).
 * The graph then holds nothing reversible, and its card keys do not match the charges' card hashes.
 */
export function deviceGraphHasher(cardHashKey: string) {
  const key = deriveKey(cardHashKey, 'device-graph');
  return {
    /** The charge's entry; null without a device (no visitor id in the signals). */
    entry(input: {
      session: FraudSession;
      merchantId: string;
      cardHash: string | null;
      customer: { document: string; email: string };
    }): DeviceGraphEntry | null {
      const profiler = input.session.signals?.profiler;
      const visitorId = input.session.signals?.visitorId;
      if (!visitorId) return null;
      const components = profiler ? stableComponentsText(profiler.components) : null;
      const { document, email } = input.customer;
      return {
        visitor_key: keyedHash(key, 'visitor', visitorId),
        merchant_key: keyedHash(key, 'merchant', input.merchantId),
        buyer_key: keyedHash(key, 'buyer', `${document}\u0000${email.trim().toLowerCase()}`),
        card_key: input.cardHash === null ? null : keyedHash(key, 'card', input.cardHash),
        components_digest: components === null ? null : keyedHash(key, 'components', components),
      };
    },
  };
}

export type DeviceGraphHasher = ReturnType<typeof deviceGraphHasher>;

const insertEntry = preparedInsert<Database, 'device_graph'>('device_graph');

/**
 * Records the charge's entry, in the charge's transaction (a charge rolled back leaves no trace in the graph).
 * SQLite only: PostgreSQL records it in the risk step's read (history.ts), saving a round trip.
 */
export function recordDeviceGraph(trx: Kysely<Database>, entry: DeviceGraphEntry, now: Date): Promise<void> {
  return insertEntry(trx, { ...entry, created_at: now.toISOString() });
}
