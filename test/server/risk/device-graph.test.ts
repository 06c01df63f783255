import { describe, expect, test } from 'vitest';
import { FINGERPRINT_KEYS } from '../../../src/sdk/src/profiler/fingerprint.js';
import {
  deviceGraphHasher,
  STABLE_COMPONENTS,
  stableComponentsText,
} from '../../../src/server/risk/device-graph.js';
import { chromiumComponents, firefoxComponents } from '../../helpers/signals.js';
import { session } from './fixtures.js';

const CARD_HASH = 'a'.repeat(64);
const customer = { document: '12345678909', email: 'Maria@Example.com' };
const hasher = deviceGraphHasher('vigia-test-card-hash-key-not-for-production-use');
const entryOf = (components: Record<string, unknown>, visitorId = 'visitor-1', merchantId = 'merchant-1') =>
  hasher.entry({
    session: session({
      signals: {
        visitorId,
        profiler: {
          provider: 'fingerprintjs+botd',
          visitorId,
          components,
          bot: { detected: false },
          durationMs: 480,
        },
      },
    }),
    merchantId,
    cardHash: CARD_HASH,
    customer,
  });

describe('the device graph’s entry', () => {
  test('the stable components are among the SDK’s FingerprintJS components (each feeds the visitor id), never BotD’s', () => {
    // The SDK may report more; one it stops reporting would change every device's digest (device-graph.ts).
    for (const key of STABLE_COMPONENTS) expect(FINGERPRINT_KEYS).toContain(key);
    for (const botd of ['webDriver', 'windowSize', 'pluginsLength', 'documentFocus', 'rtt', 'process'])
      expect(STABLE_COMPONENTS).not.toContain(botd);
  });

  test('the components’ text ignores key order and BotD’s components; none of them: null', () => {
    const components = chromiumComponents();
    const reordered = Object.fromEntries(Object.entries(components).reverse());
    expect(stableComponentsText(reordered)).toBe(stableComponentsText(components));
    // Another window size or focus (BotD) is the same device.
    expect(stableComponentsText({ ...components, windowSize: { innerWidth: 1, outerWidth: 2 } })).toBe(
      stableComponentsText(components),
    );
    expect(stableComponentsText({ ...components, hardwareConcurrency: 16 })).not.toBe(
      stableComponentsText(components),
    );
    expect(stableComponentsText({ webDriver: false, windowSize: {} })).toBeNull();
  });

  test('every value is a keyed hash: nothing of the visitor id, buyer, card or merchant is readable', () => {
    const entry = entryOf(chromiumComponents(), 'visitor-abc', 'merchant-xyz')!;
    for (const value of Object.values(entry)) expect(value).toMatch(/^[0-9a-f]{32}$/);
    // Not the charges' card hash either: the graph cannot be joined back to a charge by its card.
    expect(CARD_HASH.startsWith(entry.card_key!)).toBe(false);
    expect(JSON.stringify(entry)).not.toContain(customer.document);
  });

  test('one device, buyer and card give the same keys at every merchant; other components another digest', () => {
    const here = entryOf(chromiumComponents(), 'visitor-1', 'merchant-1')!;
    const there = entryOf(chromiumComponents(), 'visitor-1', 'merchant-2')!;
    expect(there.visitor_key).toBe(here.visitor_key);
    expect(there.buyer_key).toBe(here.buyer_key);
    expect(there.card_key).toBe(here.card_key);
    expect(there.merchant_key).not.toBe(here.merchant_key);
    expect(entryOf(firefoxComponents())!.components_digest).not.toBe(here.components_digest);
    // The e-mail's case and spaces are the same buyer.
    const again = hasher.entry({
      session: session({ signals: { visitorId: 'visitor-1' } }),
      merchantId: 'merchant-1',
      cardHash: CARD_HASH,
      customer: { document: customer.document, email: ' maria@example.com' },
    })!;
    expect(again.buyer_key).toBe(here.buyer_key);
  });

  test('no device (no visitor id): no entry; a report without components: no digest', () => {
    expect(
      hasher.entry({ session: session({ signals: null }), merchantId: 'm', cardHash: CARD_HASH, customer }),
    ).toBeNull();
    expect(entryOf({ webDriver: false })!.components_digest).toBeNull();
  });
});
