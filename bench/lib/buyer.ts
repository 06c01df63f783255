import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../../src/server/db/database.js';
import { createFraudSession } from '../../src/server/fraud/service.js';
import { CHROME_UA } from '../../test/helpers/charges.js';
import { challengeAnswers, honestProfiler } from '../../test/helpers/signals.js';

/** A buyer's fraud session as the SDK opens it: Chrome on shop.example.com, from 127.0.0.1. */
export function openBuyerSession(db: Kysely<Database>, merchantId: string, now: Date) {
  return createFraudSession(db, {
    merchantId,
    declared: {
      ipAddress: null,
      type: 'Chrome',
      hostName: 'shop.example.com',
      cookiesAccepted: true,
      userAgent: CHROME_UA,
    },
    observed: { ipAddress: '127.0.0.1', userAgent: CHROME_UA, origin: 'https://shop.example.com' },
    now,
  });
}

/**
 * That buyer's signals report: the IP lookup agrees, and the profiler sends a visitor id of its own, no bot, and
 * Chrome's answers to the session's challenge.
 */
export function buyerSignals(challenge: { nonce: string; probes: string[] }) {
  return {
    ip_lookup: { status: 'ok' as const, ip_address: '127.0.0.1', duration_ms: 40 },
    profiler: { ...honestProfiler(randomUUID().replaceAll('-', '')), challenge: challengeAnswers(challenge) },
  };
}

/** A Luhn-valid 16-digit Visa number, random: every token is a different card (no velocity hits). */
export function randomVisa(): string {
  const digits = [4, ...Array.from({ length: 14 }, () => Math.floor(Math.random() * 10))];
  const sum = digits
    .slice()
    .reverse()
    .reduce((total, digit, index) => {
      if (index % 2 === 1) return total + digit;
      const doubled = digit * 2;
      return total + (doubled > 9 ? doubled - 9 : doubled);
    }, 0);
  return [...digits, (10 - (sum % 10)) % 10].join('');
}
