import type { Kysely } from 'kysely';
import type { Database } from '../db/database.js';
import type { SplitRule } from './allocate.js';
import { splitError } from './errors.js';

/**
 * Every submerchant of a split must be the merchant's own, active and not blocked by the operator. One read,
 * inside the charge's transaction (an active submerchant never leaves that status; a block racing this read is
 * caught when the charge is booked: receivables/book.ts books a blocked recipient's share suspended).
 */
export async function checkSplitSubmerchants(
  trx: Kysely<Database>,
  merchantId: string,
  rules: readonly SplitRule[],
): Promise<void> {
  const ids = rules.map((rule) => rule.submerchantId);
  const found = await trx
    .selectFrom('submerchants')
    .select(['id', 'status', 'blocked_at'])
    .where('merchant_id', '=', merchantId)
    .where('id', 'in', ids)
    .execute();
  const byId = new Map(found.map((row) => [row.id, row]));
  ids.forEach((id, index) => {
    const field = `split[${index}].submerchant_id`;
    const current = byId.get(id)?.status;
    if (current === undefined) {
      throw splitError('SPLIT_SUBMERCHANT_NOT_FOUND', `Submerchant ${id} of the split is not one of yours.`, [
        { field, message: 'submerchant_id was not found.' },
      ]);
    }
    if (current !== 'active') {
      throw splitError(
        'SPLIT_SUBMERCHANT_NOT_ACTIVE',
        `Submerchant ${id} of the split is ${current}: only an active submerchant (approved by review) can receive a share.`,
        [{ field, message: `The submerchant is ${current}, not active.` }],
      );
    }
    if (byId.get(id)?.blocked_at) {
      throw splitError(
        'SPLIT_SUBMERCHANT_BLOCKED',
        `Submerchant ${id} of the split is blocked by the platform operator: it cannot receive a share.`,
        [{ field, message: 'The submerchant is blocked.' }],
      );
    }
  });
}
