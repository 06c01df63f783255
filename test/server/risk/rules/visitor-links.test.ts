import { describe, expect, test } from 'vitest';
import { visitorManyBuyers } from '../../../../src/server/risk/rules/visitor-many-buyers.js';
import { visitorManyCards } from '../../../../src/server/risk/rules/visitor-many-cards.js';
import { visitorManyIps } from '../../../../src/server/risk/rules/visitor-many-ips.js';
import { visitorReused } from '../../../../src/server/risk/rules/visitor-reused.js';
import type { VisitorLinks } from '../../../../src/server/risk/types.js';
import { input, policy, session } from '../fixtures.js';

// The queries behind these counts run on both databases in ../visitor-links.test.ts.
const links = (visitor: Partial<VisitorLinks> | null) =>
  input(session(), {
    history: {
      visitor: visitor && { cards: 1, buyers: 1, ips: 1, otherDevice: false, ...visitor },
    },
  });

describe('visitor linking rules', () => {
  test('VISITOR_MANY_CARDS above the policy maximum of distinct cards, not at it', () => {
    expect(visitorManyCards.applies(links({ cards: policy.linking.maxCards }), policy)).toBe(false);
    expect(visitorManyCards.applies(links({ cards: policy.linking.maxCards + 1 }), policy)).toBe(true);
  });
  test('VISITOR_MANY_BUYERS above the policy maximum of distinct buyers, not at it', () => {
    expect(visitorManyBuyers.applies(links({ buyers: policy.linking.maxBuyers }), policy)).toBe(false);
    expect(visitorManyBuyers.applies(links({ buyers: policy.linking.maxBuyers + 1 }), policy)).toBe(true);
  });
  test('VISITOR_MANY_IPS above the policy maximum of distinct IPs, not at it', () => {
    expect(visitorManyIps.applies(links({ ips: policy.linking.maxIps }), policy)).toBe(false);
    expect(visitorManyIps.applies(links({ ips: policy.linking.maxIps + 1 }), policy)).toBe(true);
  });
  test('VISITOR_REUSED when another session carried the id from another engine or OS', () => {
    expect(visitorReused.applies(links({ otherDevice: true }), policy)).toBe(true);
    expect(visitorReused.applies(links({ otherDevice: false }), policy)).toBe(false);
  });
  test('none is found for an unknown device (no visitor id)', () => {
    for (const rule of [visitorManyCards, visitorManyBuyers, visitorManyIps, visitorReused]) {
      expect(rule.applies(links(null), policy)).toBe(false);
    }
  });
});
