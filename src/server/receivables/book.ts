import type { InsertObject, Kysely, Selectable } from 'kysely';
import type { ChargesTable } from '../charges/table.js';
import { newId } from '../core/ids.js';
import { fromJson } from '../db/columns.js';
import type { Database } from '../db/database.js';
import { dialectOf } from '../db/dialect.js';
import { type Owner, ownerKey, type Posting } from '../ledger/accounts.js';
import { insufficientBalance, Overdraft } from '../ledger/errors.js';
import { lockWallets, postTransaction, type WalletId } from '../ledger/post.js';
import { getPricing, priceFor } from '../pricing/service.js';
import { allocate, type SplitRule } from '../split/allocate.js';
import { apportion, installmentMatrix, splitEvenly } from '../split/apportion.js';
import { addDays, nextBusinessDay, saoPauloDate } from './calendar.js';
import type { ReceivablesTable } from './table.js';

/** What booking needs of a charge (any payment method). */
export interface BookableCharge {
  id: string;
  merchantId: string;
  amount: number;
  /** `credit_card`, `pix` or `boleto`: the pricing of that method applies. */
  paymentMethod: string;
  installments: number;
  split: readonly SplitRule[] | null;
}

/** A charge as booking reads it, from its stored row (a review approved, a PIX or boleto paid, a dispute lost). */
export function bookableOf(row: Selectable<ChargesTable>): BookableCharge {
  return {
    id: row.id,
    merchantId: row.merchant_id,
    amount: Number(row.amount),
    paymentMethod: row.payment_method,
    installments: Number(row.installments),
    split: fromJson<SplitRule[] | null>(row.split, null),
  };
}

type ReceivableRow = Selectable<ReceivablesTable>;

/**
 * The shares of a charge once priced: who gets what, and the fee. Throws the split's 422s (a fee the paying
 * shares cannot cover): call it before taking the money, and pass the result to `bookChargeCaptured`.
 */
export async function priceCharge(trx: Kysely<Database>, charge: BookableCharge) {
  const pricing = await getPricing(trx, charge.merchantId);
  const installments = chargeInstallments(charge);
  const { fee, delayDays } = priceFor(pricing, {
    method: charge.paymentMethod,
    amount: charge.amount,
    installments,
  });
  const shares = allocate({ merchantId: charge.merchantId, amount: charge.amount, fee }, charge.split ?? []);
  return { shares, fee, delayDays, installments };
}

export type PricedCharge = Awaited<ReturnType<typeof priceCharge>>;

/** PIX and boleto are paid at once: one installment, whatever the charge says. */
const chargeInstallments = (charge: BookableCharge) =>
  charge.paymentMethod === 'credit_card' ? Math.max(1, charge.installments) : 1;

/**
 * Books a captured (or paid) charge, in the transaction that captures it: one receivable per (installment,
 * recipient), installment n due `delay × n` days after capture (São Paulo date; next business day), and one
 * ledger transaction: the gross owed by the acquirer against each recipient's net in `waiting_funds` and the fee.
 * A share of a submerchant blocked meanwhile (a charge captured after review, a PIX paid later) is booked
 * `suspended`, its net in `blocked` (receivables/suspend.ts).
 */
export async function bookChargeCaptured(
  trx: Kysely<Database>,
  input: { charge: BookableCharge; now: Date; priced?: PricedCharge },
): Promise<void> {
  const { charge, now } = input;
  const { shares, fee, delayDays, installments } = input.priced ?? (await priceCharge(trx, charge));
  const blocked = await blockedSubmerchants(trx, shares);
  const held = (recipient: Owner) => blocked.has(recipient.id);
  const postings: Posting[] = [
    { account: { platform: 'acquirer_settlement' }, amount: -charge.amount },
    { account: { platform: 'platform_fees' }, amount: fee },
    ...shares.map((share) => ({
      account: {
        owner: share.recipient,
        bucket: held(share.recipient) ? ('blocked' as const) : ('waiting_funds' as const),
      },
      amount: share.gross - share.fee,
    })),
  ];
  const captured = saoPauloDate(now);
  const dueDates = Array.from({ length: installments }, (_, index) =>
    nextBusinessDay(addDays(captured, delayDays * (index + 1))),
  );
  const matrix = installmentMatrix(
    shares.map((share) => share.gross),
    splitEvenly(charge.amount, installments),
  );
  const timestamp = now.toISOString();
  // Written with the ledger transaction's postings: each names its recipient's wallet.
  const receivables = (walletIdOf: (owner: Owner) => WalletId): InsertObject<Database, 'receivables'>[] =>
    shares.flatMap((share, i) => {
      const grosses = matrix[i]!;
      const fees = apportion(share.fee, grosses);
      const walletId = walletIdOf(share.recipient);
      return grosses.map((amount, k) => ({
        id: newId(),
        merchant_id: charge.merchantId,
        charge_id: charge.id,
        wallet_id: walletId,
        recipient_type: share.recipient.type,
        recipient_id: share.recipient.id,
        installment: k + 1,
        installments,
        amount,
        fee: fees[k]!,
        net_amount: amount - fees[k]!,
        status: held(share.recipient) ? 'suspended' : 'waiting_funds',
        type: 'credit' as const,
        payment_date: dueDates[k]!,
        original_payment_date: dueDates[k]!,
        anticipation_id: null,
        paid_at: null,
        created_at: timestamp,
      }));
    });
  await postTransaction(trx, {
    merchantId: charge.merchantId,
    kind: 'charge_captured',
    source: { type: 'charge', id: charge.id },
    postings,
    now,
    alongside: (walletIdOf) => ({ table: 'receivables', rows: receivables(walletIdOf) }),
  });
}

/**
 * The blocked submerchants among the shares' recipients; none read when the charge has no split. On PostgreSQL
 * the rows are read FOR SHARE, so that a block committing meanwhile waits for this charge, whose receivables
 * it then suspends (SQLite runs one writer at a time).
 */
async function blockedSubmerchants(
  trx: Kysely<Database>,
  shares: readonly { recipient: Owner }[],
): Promise<Set<string>> {
  const ids = shares
    .filter((share) => share.recipient.type === 'submerchant')
    .map((share) => share.recipient.id);
  if (ids.length === 0) return new Set();
  const rows = await trx
    .selectFrom('submerchants')
    .select(['id', 'blocked_at'])
    .where('id', 'in', ids)
    .$if(dialectOf(trx) === 'postgres', (query) => query.forShare())
    .execute();
  return new Set(rows.filter((row) => row.blocked_at !== null).map((row) => row.id));
}

async function insertReceivables(trx: Kysely<Database>, rows: ReceivableRow[]) {
  // 18 columns a row: 500 rows stay far below either store's limit on bound values.
  for (let start = 0; start < rows.length; start += 500) {
    await trx
      .insertInto('receivables')
      .values(rows.slice(start, start + 500))
      .execute();
  }
}

/**
 * Books a refund of `amount` (the whole charge by default) in the transaction of the refund: negative
 * receivables pro rata to what each recipient still holds of the charge, from the last installment backwards,
 * each returning its part of the fee. A part of an installment still waiting waits with it (same payment date,
 * so they settle together); a part of one already paid comes out of `available` now, and a refund that
 * `available` cannot cover is refused (422 INSUFFICIENT_BALANCE, nothing written).
 */
export async function bookChargeRefunded(
  trx: Kysely<Database>,
  input: { charge: BookableCharge; now: Date; amount?: number },
): Promise<void> {
  await bookReversal(trx, { ...input, type: 'refund', returnsFee: true, onlyLiable: false });
}

/**
 * Books a lost dispute: the acquirer takes `amount` (the whole charge by default) back from the liable
 * recipients (the merchant and the shares with `liable`), pro rata, from the last installment backwards. The
 * fee is not returned. A part of an installment already paid comes out of `available` as far as it goes and
 * the rest out of `waiting_funds` (a debt on the recipient's future receivables); a chargeback is never refused.
 */
export async function bookChargeback(
  trx: Kysely<Database>,
  input: { charge: BookableCharge; now: Date; amount?: number },
): Promise<void> {
  await bookReversal(trx, { ...input, type: 'chargeback', returnsFee: false, onlyLiable: true });
}

/**
 * A credit whose money still waits for its own date: not paid, not reserved by an anticipation. A refund part
 * waiting beside a reserved credit would settle from `available` after the anticipation had paid the credit out
 * (docs/decisions/refunds-of-anticipated-installments.md).
 */
const isWaiting = (credit: ReceivableRow) =>
  credit.status === 'waiting_funds' && credit.anticipation_id === null;

interface Holding {
  recipient: Owner;
  walletId: string;
  installment: number;
  /** The credit receivable of this (recipient, installment). */
  credit: ReceivableRow;
  /** What the recipient still holds of it after earlier reversals. */
  amount: number;
  fee: number;
}

async function bookReversal(
  trx: Kysely<Database>,
  input: {
    charge: BookableCharge;
    now: Date;
    amount?: number;
    type: 'refund' | 'chargeback';
    returnsFee: boolean;
    onlyLiable: boolean;
  },
): Promise<void> {
  const { charge, now } = input;
  // The recipients' wallets first, as anticipations and settlements take them: what follows reads the charge's
  // receivables as the last of them left them.
  const wallets = await trx
    .selectFrom('receivables')
    .select('wallet_id')
    .distinct()
    .where('charge_id', '=', charge.id)
    .execute();
  await lockWallets(
    trx,
    wallets.map((row) => row.wallet_id),
  );
  const existing = await trx
    .selectFrom('receivables')
    .selectAll()
    .where('charge_id', '=', charge.id)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  const holdings = new Map<string, Holding>();
  for (const row of existing) {
    const key = `${row.recipient_type}:${row.recipient_id}/${row.installment}`;
    if (row.type === 'credit') {
      holdings.set(key, {
        recipient: { type: row.recipient_type, id: row.recipient_id },
        walletId: row.wallet_id,
        installment: row.installment,
        credit: row,
        amount: Number(row.amount),
        fee: Number(row.fee),
      });
    }
  }
  for (const row of existing) {
    const holding = holdings.get(`${row.recipient_type}:${row.recipient_id}/${row.installment}`);
    if (row.type !== 'credit' && holding) {
      holding.amount += Number(row.amount);
      holding.fee += Number(row.fee);
    }
  }
  const liable = new Set(
    (charge.split ?? []).filter((rule) => rule.liable).map((rule) => `submerchant:${rule.submerchantId}`),
  );
  liable.add(`merchant:${charge.merchantId}`);
  const byRecipient = new Map<string, Holding[]>();
  for (const holding of holdings.values()) {
    const key = ownerKey(holding.recipient);
    if (input.onlyLiable && !liable.has(key)) continue;
    byRecipient.set(key, [...(byRecipient.get(key) ?? []), holding]);
  }
  const recipients = [...byRecipient.values()].sort((a, b) =>
    a[0]!.recipient.type === b[0]!.recipient.type ? 0 : a[0]!.recipient.type === 'merchant' ? -1 : 1,
  );
  const held = recipients.map((list) => list.reduce((sum, holding) => sum + holding.amount, 0));
  const amount = input.amount ?? held.reduce((a, b) => a + b, 0);
  const parts = apportion(amount, held);

  const today = saoPauloDate(now);
  const timestamp = now.toISOString();
  const rows: ReceivableRow[] = [];
  const postings: Posting[] = [{ account: { platform: 'acquirer_settlement' }, amount }];
  let feeReturned = 0;
  recipients.forEach((list, index) => {
    let left = parts[index]!;
    for (const holding of [...list].sort((a, b) => b.installment - a.installment)) {
      if (left === 0) break;
      const part = Math.min(left, holding.amount);
      if (part === 0) continue;
      left -= part;
      const fee = !input.returnsFee
        ? 0
        : part === holding.amount
          ? holding.fee
          : Math.floor((part * holding.fee) / holding.amount);
      feeReturned += fee;
      const waiting = isWaiting(holding.credit);
      // The part of a suspended installment is suspended with it; its net leaves `blocked`.
      const suspended = holding.credit.status === 'suspended';
      const held = waiting || suspended;
      const id = newId();
      rows.push({
        id,
        merchant_id: charge.merchantId,
        charge_id: charge.id,
        wallet_id: holding.walletId,
        recipient_type: holding.recipient.type,
        recipient_id: holding.recipient.id,
        installment: holding.installment,
        installments: holding.credit.installments,
        amount: -part,
        fee: -fee,
        net_amount: -(part - fee),
        status: suspended ? 'suspended' : waiting ? 'waiting_funds' : 'paid',
        type: input.type,
        payment_date: held ? holding.credit.payment_date : today,
        original_payment_date: held ? holding.credit.original_payment_date : today,
        anticipation_id: null,
        paid_at: held ? null : timestamp,
        created_at: timestamp,
      });
      // A part of an installment still waiting leaves waiting funds; one already paid, or reserved by an
      // anticipation (whose payment brings its net to available), leaves available.
      postings.push({
        account: {
          owner: holding.recipient,
          bucket: suspended ? 'blocked' : waiting ? 'waiting_funds' : 'available',
        },
        amount: -(part - fee),
        source: { type: 'receivable', id },
      });
    }
  });
  if (feeReturned > 0) postings.push({ account: { platform: 'platform_fees' }, amount: -feeReturned });
  try {
    await postTransaction(trx, {
      merchantId: charge.merchantId,
      kind: input.type === 'refund' ? 'charge_refunded' : 'chargeback',
      source: { type: input.type, id: charge.id },
      postings:
        input.type === 'chargeback' ? await coverFromAvailable(trx, charge.merchantId, postings) : postings,
      now,
    });
  } catch (error) {
    if (error instanceof Overdraft) {
      throw insufficientBalance(
        "The refund takes back money already paid out (or anticipated) to a recipient's available balance, " +
          'which no longer holds enough: the refund was not made.',
      );
    }
    throw error;
  }
  await insertReceivables(trx, rows);
}

/**
 * A chargeback is not refused: what a recipient's available balance cannot cover is taken from its waiting
 * funds instead.
 */
async function coverFromAvailable(trx: Kysely<Database>, merchantId: string, postings: Posting[]) {
  const need = new Map<string, { owner: Owner; total: number }>();
  for (const posting of postings) {
    const { account } = posting;
    if ('owner' in account && account.bucket === 'available') {
      const key = ownerKey(account.owner);
      need.set(key, { owner: account.owner, total: (need.get(key)?.total ?? 0) - posting.amount });
    }
  }
  const adjusted = [...postings];
  for (const [key, { owner, total }] of need) {
    const wallet = await trx
      .selectFrom('wallets')
      .select('available')
      .where('merchant_id', '=', merchantId)
      .where('owner_type', '=', owner.type)
      .where('owner_id', '=', owner.id)
      .executeTakeFirst();
    const shortfall = total - Math.max(0, Number(wallet?.available ?? 0));
    if (shortfall <= 0) continue;
    let left = shortfall;
    for (let index = adjusted.length - 1; index >= 0 && left > 0; index--) {
      const posting = adjusted[index]!;
      const { account } = posting;
      if (!('owner' in account) || account.bucket !== 'available' || ownerKey(account.owner) !== key)
        continue;
      const moved = Math.min(left, -posting.amount);
      left -= moved;
      adjusted[index] = { ...posting, amount: posting.amount + moved };
      adjusted.push({ ...posting, account: { owner, bucket: 'waiting_funds' }, amount: -moved });
    }
  }
  return adjusted.filter((posting) => posting.amount !== 0);
}
