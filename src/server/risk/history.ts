import type { Kysely } from 'kysely';
import type { Database } from '../db/database.js';
import type { FraudSession } from '../fraud/service.js';
import { deviceOf, sameOsFamily, sessionUserAgent } from './device.js';
import type { RiskPolicy } from './policy.js';
import { normalizeIp } from './rules/ip-mismatch.js';
import type { RiskInput, VisitorLinks } from './types.js';

/**
 * Serializes the charges of one card: an upsert of the card's row, held (on PostgreSQL) until the charge's
 * transaction ends, so that a parallel charge of the card waits and then counts this one. SQLite runs one
 * write transaction at a time, so there it only costs the write.
 */
async function lockCard(
  db: Kysely<Database>,
  merchantId: string,
  cardHash: string,
  now: Date,
): Promise<void> {
  const timestamp = now.toISOString();
  await db
    .insertInto('card_velocity_locks')
    .values({ merchant_id: merchantId, card_hash: cardHash, last_charge_at: timestamp })
    .onConflict((conflict) =>
      conflict.columns(['merchant_id', 'card_hash']).doUpdateSet({ last_charge_at: timestamp }),
    )
    .execute();
}

const minutesBefore = (now: Date, minutes: number) =>
  new Date(now.getTime() - minutes * 60_000).toISOString();

async function countCharges(
  db: Kysely<Database>,
  merchantId: string,
  column: 'card_hash' | 'visitor_id',
  value: string,
  since: string,
): Promise<number> {
  const row = await db
    .selectFrom('charges')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('merchant_id', '=', merchantId)
    .where(column, '=', value)
    .where('created_at', '>=', since)
    .executeTakeFirst();
  return Number(row?.count ?? 0);
}

/**
 * The merchant's recent charges of this card and this device, whatever their outcome (a run of declines is
 * what card testing looks like), and what the device was linked with (`visitorLinks`). Per merchant: one
 * merchant's buyers do not count against another's. Run it in the charge's transaction: it locks the card
 * until that transaction ends, so parallel charges count in turn.
 */
export async function recentHistory(
  db: Kysely<Database>,
  input: {
    merchantId: string;
    cardHash: string;
    customer: { document: string; email: string };
    session: FraudSession;
    now: Date;
    policy: RiskPolicy;
  },
): Promise<RiskInput['history']> {
  const { merchantId, now, policy } = input;
  await lockCard(db, merchantId, input.cardHash, now);
  const cardCharges = await countCharges(
    db,
    merchantId,
    'card_hash',
    input.cardHash,
    minutesBefore(now, policy.velocity.card.windowMinutes),
  );
  const visitorId = input.session.signals?.visitorId ?? null;
  if (visitorId === null) return { cardCharges, deviceCharges: null, visitor: null };
  const deviceCharges = await countCharges(
    db,
    merchantId,
    'visitor_id',
    visitorId,
    minutesBefore(now, policy.velocity.device.windowMinutes),
  );
  const visitor = await visitorLinks(db, { ...input, visitorId });
  return { cardCharges, deviceCharges, visitor };
}

// Enough rows to count past any threshold a merchant would set, bounded so that a farmed id costs little.
const LINK_ROWS = 200;

/**
 * What this device (visitor id) was seen with in the merchant's linking window: distinct cards and buyers of
 * its charges, source IPs of its sessions, and whether another session carried it from another engine or OS.
 */
async function visitorLinks(
  db: Kysely<Database>,
  input: {
    merchantId: string;
    visitorId: string;
    cardHash: string;
    customer: { document: string; email: string };
    session: FraudSession;
    now: Date;
    policy: RiskPolicy;
  },
): Promise<VisitorLinks> {
  const since = minutesBefore(input.now, input.policy.linking.windowMinutes);
  const charges = await db
    .selectFrom('charges')
    .select(['card_hash', 'customer_document', 'customer_email'])
    .where('merchant_id', '=', input.merchantId)
    .where('visitor_id', '=', input.visitorId)
    .where('created_at', '>=', since)
    .limit(LINK_ROWS)
    .execute();
  const sessions = await db
    .selectFrom('fraud_sessions')
    .select(['observed_ip_address', 'observed_user_agent'])
    .where('merchant_id', '=', input.merchantId)
    .where('visitor_id', '=', input.visitorId)
    .where('created_at', '>=', since)
    .where('id', '!=', input.session.id)
    .limit(LINK_ROWS)
    .execute();
  const distinct = (values: string[]) => new Set(values).size;
  const device = deviceOf(sessionUserAgent(input.session));
  const otherDevice = sessions.some((other) => {
    const seen = deviceOf(other.observed_user_agent);
    return (
      (seen.engine !== null && device.engine !== null && seen.engine !== device.engine) ||
      (seen.os !== null && device.os !== null && !sameOsFamily(seen.os, device.os))
    );
  });
  return {
    cards: distinct([input.cardHash, ...charges.map((charge) => charge.card_hash)]),
    buyers: Math.max(
      distinct([input.customer.document, ...charges.map((charge) => charge.customer_document)]),
      distinct([input.customer.email, ...charges.map((charge) => charge.customer_email)].map(lower)),
    ),
    ips: distinct(
      [input.session.observed.ipAddress, ...sessions.map((other) => other.observed_ip_address)].map(
        normalizeIp,
      ),
    ),
    otherDevice,
  };
}

const lower = (text: string) => text.trim().toLowerCase();
