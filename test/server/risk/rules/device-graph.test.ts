import { describe, expect, test } from 'vitest';
import { deviceCardsAcrossMerchants } from '../../../../src/server/risk/rules/device-cards-across-merchants.js';
import { deviceSharedAcrossMerchants } from '../../../../src/server/risk/rules/device-shared-across-merchants.js';
import { visitorIdForged } from '../../../../src/server/risk/rules/visitor-id-forged.js';
import type { DeviceGraphLinks } from '../../../../src/server/risk/types.js';
import { input, policy, session } from '../fixtures.js';

// The reads behind these facts run on both databases in ../device-graph-charges.test.ts.
const graph = (links: Partial<DeviceGraphLinks> | null) =>
  input(session(), {
    history: {
      graph: links && {
        otherComponents: false,
        otherMerchantBuyerAndCard: false,
        recentMerchants: 1,
        recentCards: 1,
        ...links,
      },
    },
  });

describe('device graph rules', () => {
  test('VISITOR_ID_FORGED when the id came with other stable components, only then', () => {
    expect(visitorIdForged.applies(graph({ otherComponents: true }), policy)).toBe(true);
    expect(visitorIdForged.applies(graph({ otherMerchantBuyerAndCard: true, recentCards: 9 }), policy)).toBe(
      false,
    );
  });

  test('VISITOR_ID_FORGED does not count again what VISITOR_REUSED found (the id from another engine or OS here)', () => {
    const reused = input(session(), {
      history: {
        visitor: { cards: 1, buyers: 1, ips: 1, otherDevice: true },
        graph: {
          otherComponents: true,
          otherMerchantBuyerAndCard: false,
          recentMerchants: 1,
          recentCards: 1,
        },
      },
    });
    expect(visitorIdForged.applies(reused, policy)).toBe(false);
  });

  test('DEVICE_SHARED_ACROSS_MERCHANTS when another merchant saw another buyer with another card', () => {
    expect(deviceSharedAcrossMerchants.applies(graph({ otherMerchantBuyerAndCard: true }), policy)).toBe(
      true,
    );
    expect(deviceSharedAcrossMerchants.applies(graph({ recentMerchants: 20 }), policy)).toBe(false);
  });

  test('DEVICE_CARDS_ACROSS_MERCHANTS above the cards maximum at the merchants minimum, not at either edge', () => {
    const { maxCards, minMerchants } = policy.graph;
    const fires = (recentCards: number, recentMerchants: number) =>
      deviceCardsAcrossMerchants.applies(graph({ recentCards, recentMerchants }), policy);
    expect(fires(maxCards + 1, minMerchants)).toBe(true);
    expect(fires(maxCards, minMerchants)).toBe(false);
    expect(fires(maxCards + 1, minMerchants - 1)).toBe(false);
    // A lab or a family: twenty merchants and buyers, one card.
    expect(fires(1, 20)).toBe(false);
  });

  test('none fires for an unknown device (no graph), and none reviews alone but VISITOR_ID_FORGED and the cards', () => {
    for (const rule of [visitorIdForged, deviceSharedAcrossMerchants, deviceCardsAcrossMerchants])
      expect(rule.applies(graph(null), policy)).toBe(false);
    expect(policy.weights.DEVICE_SHARED_ACROSS_MERCHANTS).toBeLessThan(policy.thresholds.review);
    expect(policy.weights.VISITOR_ID_FORGED).toBeLessThan(policy.thresholds.decline);
    expect(policy.weights.DEVICE_CARDS_ACROSS_MERCHANTS).toBeLessThan(policy.thresholds.decline);
  });
});
