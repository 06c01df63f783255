import type { Kysely } from 'kysely';
import type { Database } from '../db/database.js';
import type { RiskPolicy } from './policy.js';
import type { RiskInput } from './types.js';

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
 * what card testing looks like). Per merchant: one merchant's buyers do not count against another's.
 */
export async function recentHistory(
  db: Kysely<Database>,
  input: { merchantId: string; cardHash: string; visitorId: string | null; now: Date; policy: RiskPolicy },
): Promise<RiskInput['history']> {
  const { merchantId, now, policy } = input;
  const cardCharges = await countCharges(
    db,
    merchantId,
    'card_hash',
    input.cardHash,
    minutesBefore(now, policy.velocity.card.windowMinutes),
  );
  const deviceCharges =
    input.visitorId === null
      ? null
      : await countCharges(
          db,
          merchantId,
          'visitor_id',
          input.visitorId,
          minutesBefore(now, policy.velocity.device.windowMinutes),
        );
  return { cardCharges, deviceCharges };
}
