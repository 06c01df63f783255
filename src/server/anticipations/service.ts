import { type Kysely, type Selectable, sql } from 'kysely';
import { newId } from '../core/ids.js';
import type { Database } from '../db/database.js';
import { type ListFilters, paginate } from '../db/lists.js';
import { invalidState, notFound } from '../errors.js';
import type { Owner } from '../ledger/accounts.js';
import { findWallet, lockWallets } from '../ledger/post.js';
import { getPricing, type Pricing } from '../pricing/service.js';
import { isBusinessDay, saoPauloDate } from '../receivables/calendar.js';
import type { Outbox } from '../webhooks/outbox.js';
import { anticipationError } from './errors.js';
import { type AnticipationEventType, anticipationEventData } from './events.js';
import { anticipationFee, daysAnticipatedSql, daysBetween } from './fee.js';
import type { AnticipationStatus, LimitReason, Timeframe } from './rules.js';
import type { AnticipationsTable } from './table.js';

export type Anticipation = Selectable<AnticipationsTable>;

/** Whose receivables: the merchant's own (no submerchant) or one of its submerchants'. */
export interface AnticipationScope {
  merchantId: string;
  submerchantId?: string;
  timeframe: Timeframe;
  paymentDate: string;
}

const FREE_WAITING = sql.lit<'waiting_funds'>('waiting_funds');

/**
 * The wallet's waiting receivables not yet taken by an anticipation and due after `paymentDate`: the predicate of
 * the partial index `receivables_anticipatable`, spelled with literals so that both stores use it.
 */
function anticipatable(db: Kysely<Database>, walletId: string, paymentDate: string) {
  return db
    .selectFrom('receivables')
    .where('wallet_id', '=', walletId)
    .where('status', '=', FREE_WAITING)
    .where('anticipation_id', 'is', null)
    .where('payment_date', '>', paymentDate);
}

/** The free receivables in the order an anticipation takes them (`start`: soonest due first; `end`: latest). */
function inPlanOrder(db: Kysely<Database>, walletId: string, scope: AnticipationScope) {
  return anticipatable(db, walletId, scope.paymentDate)
    .select(['id', 'charge_id', 'installment', 'payment_date', 'net_amount'])
    .orderBy('payment_date', scope.timeframe === 'start' ? 'asc' : 'desc')
    .orderBy('charge_id')
    .orderBy('installment')
    .orderBy('id');
}

interface Installment {
  ids: string[];
  net: number;
  /** Σ net × days anticipated: what its fee is priced on (fee.ts). */
  netDays: number;
}

/**
 * Receivables (in plan order) grouped by installment: a credit and the refunds waiting with it share charge,
 * installment and date, and stay whole.
 */
function installmentsOf(
  rows: { id: string; charge_id: string; installment: number; payment_date: string; net_amount: number }[],
  paymentDate: string,
): Installment[] {
  const groups: Installment[] = [];
  let previous = '';
  for (const row of rows) {
    const key = `${row.charge_id}/${row.installment}/${row.payment_date}`;
    if (key !== previous) groups.push({ ids: [], net: 0, netDays: 0 });
    previous = key;
    const group = groups[groups.length - 1]!;
    const net = Number(row.net_amount);
    group.ids.push(row.id);
    group.net += net;
    group.netDays += net * daysBetween(paymentDate, row.payment_date);
  }
  return groups;
}

/** How many receivables the limits read, in plan order, to find the smallest anticipation that can be made. */
const MINIMUM_SCAN = 1_000;

/**
 * The smallest anticipation a request can get: whole installments are taken in plan order, so it is the first run
 * of them (and every installment that nets to zero or less, which is always taken) that reaches the operator's
 * minimum. A request of exactly that amount is granted at that amount and fee. Read from the first
 * MINIMUM_SCAN receivables; a wallet whose first thousand receivables do not reach the minimum gets the minimum
 * itself (docs/decisions/anticipation-limits-minimum.md).
 */
async function smallestAnticipation(
  db: Kysely<Database>,
  walletId: string,
  scope: AnticipationScope,
  minimum: number,
  monthlyRate: number,
): Promise<{ amount: number; fee: number } | null> {
  const rows = await inPlanOrder(db, walletId, scope).limit(MINIMUM_SCAN).execute();
  const groups = installmentsOf(rows, scope.paymentDate);
  // The read may have cut the last installment short.
  if (rows.length === MINIMUM_SCAN) groups.pop();
  const debts = groups.filter((group) => group.net <= 0);
  let amount = debts.reduce((sum, group) => sum + group.net, 0);
  let netDays = debts.reduce((sum, group) => sum + group.netDays, 0);
  for (const group of groups) {
    if (group.net <= 0) continue;
    amount += group.net;
    netDays += group.netDays;
    if (amount >= minimum) return { amount, fee: anticipationFee(netDays, monthlyRate) };
  }
  return null;
}

interface Resolved {
  owner: Owner;
  walletId: string | null;
  pricing: Pricing;
  /** Why nothing can be anticipated whatever the receivables, if so. */
  blocked: 'submerchant_not_active' | 'submerchant_blocked' | 'not_enabled' | null;
}

/** The owner, its wallet and pricing; 404 for a submerchant not the merchant's, 422 for a bad payment date. */
async function resolve(db: Kysely<Database>, scope: AnticipationScope, now: Date): Promise<Resolved> {
  if (scope.paymentDate < saoPauloDate(now) || !isBusinessDay(scope.paymentDate)) {
    throw anticipationError(
      'ANTICIPATION_PAYMENT_DATE_INVALID',
      `payment_date ${scope.paymentDate} is ${scope.paymentDate < saoPauloDate(now) ? 'in the past' : 'not a business day in Brazil'}: choose today or a later business day.`,
      [{ field: 'payment_date', message: 'Must be today or a later business day.' }],
    );
  }
  let owner: Owner = { type: 'merchant', id: scope.merchantId };
  let active = true;
  let submerchantBlocked = false;
  if (scope.submerchantId) {
    const submerchant = await db
      .selectFrom('submerchants')
      .select(['status', 'blocked_at'])
      .where('id', '=', scope.submerchantId)
      .where('merchant_id', '=', scope.merchantId)
      .executeTakeFirst();
    if (!submerchant) throw notFound('Submerchant');
    owner = { type: 'submerchant', id: scope.submerchantId };
    active = submerchant.status === 'active';
    submerchantBlocked = submerchant.blocked_at !== null;
  }
  const pricing = await getPricing(db, scope.merchantId);
  const wallet = await findWallet(db, scope.merchantId, owner);
  return {
    owner,
    walletId: wallet?.id ?? null,
    pricing,
    blocked: !active
      ? 'submerchant_not_active'
      : submerchantBlocked
        ? 'submerchant_blocked'
        : !pricing.anticipation.enabled
          ? 'not_enabled'
          : null,
  };
}

/** Why nothing is waiting: nothing at all, or everything already anticipated (or reserved by one). */
async function emptyReason(db: Kysely<Database>, walletId: string | null): Promise<LimitReason> {
  if (!walletId) return 'no_receivables';
  const taken = await db
    .selectFrom('receivables')
    .select('id')
    .where('wallet_id', '=', walletId)
    .where((eb) =>
      eb.or([
        eb('status', '=', sql.lit<'prepaid'>('prepaid')),
        eb.and([eb('status', '=', FREE_WAITING), eb('anticipation_id', 'is not', null)]),
      ]),
    )
    .limit(1)
    .executeTakeFirst();
  return taken ? 'all_anticipated' : 'no_receivables';
}

export interface Limits {
  min: { amount: number; fee: number };
  max: { amount: number; fee: number };
  reason: LimitReason | null;
  monthlyRate: number;
}

/**
 * The smallest and largest anticipation possible now: the maximum is every free waiting receivable due after
 * the date with its fee, one aggregate over the wallet's per-date totals (`anticipatable_dates`, a few hundred rows
 * whatever the number of receivables); the minimum is the smallest request granted whole, at least the operator's
 * (smallestAnticipation; docs/decisions/anticipation-limits-query.md, anticipation-limits-minimum.md). When the maximum is zero, `reason` says why.
 */
export async function anticipationLimits(
  db: Kysely<Database>,
  scope: AnticipationScope,
  now: Date,
): Promise<Limits> {
  const resolved = await resolve(db, scope, now);
  const { pricing, walletId } = resolved;
  const monthlyRate = pricing.anticipationMonthlyRate;
  const zero = (reason: LimitReason): Limits => ({
    min: { amount: 0, fee: 0 },
    max: { amount: 0, fee: 0 },
    reason,
    monthlyRate,
  });
  if (resolved.blocked) return zero(resolved.blocked);
  if (!walletId) return zero('no_receivables');
  const totals = await db
    .selectFrom('anticipatable_dates')
    .where('wallet_id', '=', walletId)
    .where('payment_date', '>', scope.paymentDate)
    .select((eb) => [
      eb.fn.sum<number>('receivables').as('count'),
      eb.fn.sum<number>('net_amount').as('amount'),
      eb.fn.sum<number>(sql`net_amount * ${daysAnticipatedSql(db, scope.paymentDate)}`).as('net_days'),
      eb.fn.min('payment_date').as('first'),
      eb.fn.max('payment_date').as('last'),
    ])
    .executeTakeFirstOrThrow();
  if (Number(totals.count ?? 0) === 0) return zero(await emptyReason(db, walletId));
  const max = { amount: Number(totals.amount), fee: anticipationFee(Number(totals.net_days), monthlyRate) };
  const minimum = Math.max(1, pricing.anticipation.minimumAmount);
  if (max.amount < minimum) return zero('below_minimum');
  const firstDate = scope.timeframe === 'start' ? totals.first : totals.last;
  const days = daysBetween(scope.paymentDate, String(firstDate));
  const smallest = await smallestAnticipation(db, walletId, scope, minimum, monthlyRate);
  return {
    min: smallest ?? { amount: minimum, fee: anticipationFee(minimum * days, monthlyRate) },
    max,
    reason: null,
    monthlyRate,
  };
}

/** What an anticipation would take: its receivables and amounts. */
export interface Plan {
  owner: Owner;
  walletId: string;
  receivableIds: string[];
  approvedAmount: number;
  fee: number;
  netAmount: number;
  monthlyRate: number;
  autoApproveLimit: number;
}

/**
 * Picks whole receivables in the timeframe's order (`start`: soonest due first; `end`: latest first), each
 * installment with the refunds waiting with it, taking every installment whose net still fits in what is left
 * of the request. Refused (422, nothing written) when anticipations are off, the submerchant inactive or
 * blocked, nothing
 * waits, or the amount is outside the limits.
 */
export async function planAnticipation(
  db: Kysely<Database>,
  scope: AnticipationScope & { requestedAmount: number },
  now: Date,
  options: { lockWallet?: boolean } = {},
): Promise<Plan> {
  const resolved = await resolve(db, scope, now);
  const { pricing, walletId, owner } = resolved;
  if (options.lockWallet && walletId) await lockWallets(db, [walletId]);
  if (resolved.blocked === 'submerchant_not_active') {
    throw anticipationError(
      'ANTICIPATION_SUBMERCHANT_NOT_ACTIVE',
      `Submerchant ${scope.submerchantId} is not active: only an active submerchant's receivables can be anticipated.`,
    );
  }
  if (resolved.blocked === 'submerchant_blocked') {
    throw anticipationError(
      'ANTICIPATION_SUBMERCHANT_BLOCKED',
      `Submerchant ${scope.submerchantId} is blocked by the platform operator: its receivables are suspended.`,
    );
  }
  if (resolved.blocked === 'not_enabled') {
    throw anticipationError('ANTICIPATION_NOT_ENABLED', 'Anticipations are not enabled for this merchant.');
  }
  const rows = walletId ? await inPlanOrder(db, walletId, scope).execute() : [];
  if (!walletId || rows.length === 0) {
    const reason = await emptyReason(db, walletId);
    throw anticipationError(
      'ANTICIPATION_NO_RECEIVABLES',
      reason === 'all_anticipated'
        ? 'Every waiting receivable due after payment_date is already anticipated or reserved by an anticipation.'
        : 'No receivable waits to be paid after payment_date.',
    );
  }
  const minimum = Math.max(1, pricing.anticipation.minimumAmount);
  const rate = pricing.anticipationMonthlyRate;
  const maxAmount = rows.reduce((sum, row) => sum + Number(row.net_amount), 0);
  const detail = { field: 'requested_amount', message: '' };
  if (scope.requestedAmount < minimum || maxAmount < minimum) {
    throw anticipationError(
      'ANTICIPATION_BELOW_MINIMUM',
      maxAmount < minimum
        ? `The waiting receivables make ${maxAmount} centavos, below the minimum anticipation of ${minimum}.`
        : `requested_amount is below the minimum anticipation of ${minimum} centavos.`,
      [{ ...detail, message: `Must be at least ${minimum}.` }],
    );
  }
  if (scope.requestedAmount > maxAmount) {
    throw anticipationError(
      'ANTICIPATION_ABOVE_MAXIMUM',
      `requested_amount is above what can be anticipated: request between ${minimum} and ${maxAmount} centavos.`,
      [{ ...detail, message: `Must be at most ${maxAmount}.` }],
    );
  }
  const groups = installmentsOf(rows, scope.paymentDate);
  // An installment that nets to zero or less (a chargeback beyond what waits with it) is a debt: every one is
  // taken, so that it is settled now rather than from `available` on its date, and so that a request of the
  // limits' maximum takes every free receivable, priced as the limits price it.
  const debts = groups.filter((group) => group.net <= 0);
  let left = scope.requestedAmount - debts.reduce((sum, group) => sum + group.net, 0);
  const taken = debts.flatMap((group) => group.ids);
  let netDays = debts.reduce((sum, group) => sum + group.netDays, 0);
  for (const group of groups) {
    if (group.net <= 0 || group.net > left) continue;
    left -= group.net;
    netDays += group.netDays;
    taken.push(...group.ids);
  }
  const approvedAmount = scope.requestedAmount - left;
  const fee = anticipationFee(netDays, rate);
  if (approvedAmount < minimum) {
    throw anticipationError(
      'ANTICIPATION_BELOW_MINIMUM',
      `Whole receivables make only ${approvedAmount} centavos of the request, below the minimum anticipation of ${minimum}: request more.`,
      [{ ...detail, message: `Whole receivables make ${approvedAmount} of it.` }],
    );
  }
  if (fee >= approvedAmount) {
    throw anticipationError(
      'ANTICIPATION_FEE_EXCEEDS_AMOUNT',
      `The fee (${fee} centavos) would take the whole ${approvedAmount} anticipated.`,
    );
  }
  return {
    owner,
    walletId,
    receivableIds: taken,
    approvedAmount,
    fee,
    netAmount: approvedAmount - fee,
    monthlyRate: rate,
    autoApproveLimit: pricing.anticipation.autoApproveLimit,
  };
}

/** Another anticipation took one of the planned receivables first: plan again. */
class ReservationLost extends Error {}

const RESERVATION_ATTEMPTS = 5;

/**
 * Creates the anticipation in one transaction: the row, the reservation of its receivables (one conditional
 * UPDATE per chunk: a receivable another anticipation reserved first is not taken twice; the plan is made again),
 * its events, and its automatic approval when within the operator's limit.
 */
export async function createAnticipation(
  db: Kysely<Database>,
  input: {
    scope: AnticipationScope & { requestedAmount: number };
    testMode: boolean;
    now: Date;
    outbox: Outbox;
    whenCreated?: (trx: Kysely<Database>, anticipation: Anticipation) => Promise<void>;
  },
): Promise<Anticipation> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await db.transaction().execute(async (trx) => {
        // The wallet held first: a refund of one of its charges books before or after, never beside the plan.
        const plan = await planAnticipation(trx, input.scope, input.now, { lockWallet: true });
        const timestamp = input.now.toISOString();
        const id = newId();
        let anticipation = await trx
          .insertInto('anticipations')
          .values({
            id,
            merchant_id: input.scope.merchantId,
            wallet_id: plan.walletId,
            owner_type: plan.owner.type,
            owner_id: plan.owner.id,
            status: 'pending',
            timeframe: input.scope.timeframe,
            payment_date: input.scope.paymentDate,
            requested_amount: input.scope.requestedAmount,
            approved_amount: plan.approvedAmount,
            fee: plan.fee,
            net_amount: plan.netAmount,
            receivables_count: plan.receivableIds.length,
            monthly_rate: plan.monthlyRate,
            test_mode: input.testMode ? 1 : 0,
            version: 1,
            status_reason: null,
            paid_at: null,
            created_at: timestamp,
            updated_at: timestamp,
          })
          .returningAll()
          .executeTakeFirstOrThrow();
        let reserved = 0;
        for (let start = 0; start < plan.receivableIds.length; start += 500) {
          const result = await trx
            .updateTable('receivables')
            .set({ anticipation_id: id })
            .where('id', 'in', plan.receivableIds.slice(start, start + 500))
            .where('status', '=', FREE_WAITING)
            .where('anticipation_id', 'is', null)
            .executeTakeFirst();
          reserved += Number(result.numUpdatedRows);
        }
        if (reserved !== plan.receivableIds.length) throw new ReservationLost();
        await recordEvent(trx, input.outbox, anticipation, 'anticipation.created', input.now);
        if (plan.approvedAmount <= plan.autoApproveLimit) {
          anticipation = (await transition(trx, input.outbox, {
            id,
            from: ['pending'],
            to: 'approved',
            now: input.now,
          }))!;
        }
        await input.whenCreated?.(trx, anticipation);
        return anticipation;
      });
    } catch (error) {
      if (!(error instanceof ReservationLost) || attempt === RESERVATION_ATTEMPTS) throw error;
    }
  }
}

function recordEvent(
  trx: Kysely<Database>,
  outbox: Outbox,
  anticipation: Anticipation,
  type: AnticipationEventType,
  now: Date,
) {
  return outbox.recordEvent(trx, {
    merchantId: anticipation.merchant_id,
    type,
    data: anticipationEventData(anticipation),
    now,
  });
}

const EVENT_OF: Record<Exclude<AnticipationStatus, 'pending'>, AnticipationEventType> = {
  approved: 'anticipation.approved',
  paid: 'anticipation.paid',
  refused: 'anticipation.refused',
  canceled: 'anticipation.canceled',
};

/**
 * One status change, as one conditional UPDATE (`… WHERE id = ? AND status IN from`), so that two instances or
 * two callers never both make it; with its event. Null when the anticipation was not in a `from` status.
 */
export async function transition(
  trx: Kysely<Database>,
  outbox: Outbox,
  change: {
    id: string;
    from: AnticipationStatus[];
    to: Exclude<AnticipationStatus, 'pending'>;
    now: Date;
    reason?: string;
  },
): Promise<Anticipation | null> {
  const timestamp = change.now.toISOString();
  const updated = await trx
    .updateTable('anticipations')
    .set((eb) => ({
      status: change.to,
      version: eb('version', '+', 1),
      updated_at: timestamp,
      ...(change.reason !== undefined && { status_reason: change.reason }),
      ...(change.to === 'paid' && { paid_at: timestamp }),
    }))
    .where('id', '=', change.id)
    .where('status', 'in', change.from)
    .returningAll()
    .executeTakeFirst();
  if (!updated) return null;
  // Refused or canceled: its receivables are free again, to settle on their date or be anticipated anew.
  if (change.to === 'refused' || change.to === 'canceled') {
    await trx
      .updateTable('receivables')
      .set({ anticipation_id: null })
      .where('anticipation_id', '=', change.id)
      .where('status', '=', FREE_WAITING)
      .execute();
  }
  await recordEvent(trx, outbox, updated, EVENT_OF[change.to], change.now);
  return updated;
}

/** Who asks for a change: a merchant sees only its own anticipations; the operator sees every one. */
export type Actor = { merchantId: string } | { operator: true };

/**
 * A change asked for through the API: 404 when the actor cannot see the anticipation, 409 INVALID_STATE when
 * its status does not allow the change.
 */
export async function changeStatus(
  db: Kysely<Database>,
  input: {
    id: string;
    actor: Actor;
    from: AnticipationStatus[];
    to: 'approved' | 'refused' | 'canceled';
    reason?: string;
    now: Date;
    outbox: Outbox;
  },
): Promise<Anticipation> {
  return db.transaction().execute(async (trx) => {
    const current = await findAnticipation(trx, input.actor, input.id);
    if (!current) throw notFound('Anticipation');
    const changed = await transition(trx, input.outbox, input);
    if (!changed) {
      const verb = { approved: 'approved', refused: 'refused', canceled: 'canceled' }[input.to];
      throw invalidState(
        `The anticipation is ${current.status}: only a ${input.from.join(' or ')} anticipation can be ${verb}.`,
      );
    }
    return changed;
  });
}

function findAnticipation(db: Kysely<Database>, actor: Actor, id: string) {
  let query = db.selectFrom('anticipations').selectAll().where('id', '=', id);
  if ('merchantId' in actor) query = query.where('merchant_id', '=', actor.merchantId);
  return query.executeTakeFirst();
}

export const getAnticipation = (db: Kysely<Database>, actor: Actor, id: string) =>
  findAnticipation(db, actor, id);

const COLUMNS = {
  createdAt: 'created_at',
  id: 'id',
  status: 'status',
  search: ['id'],
  searchStoredLowerCase: true,
};

/** A merchant's anticipations (or every merchant's, for the operator), newest first. */
export function listAnticipations(
  db: Kysely<Database>,
  actor: Actor,
  filters: ListFilters & { submerchantId?: string },
) {
  let query = db.selectFrom('anticipations').selectAll();
  if ('merchantId' in actor) query = query.where('merchant_id', '=', actor.merchantId);
  if (filters.submerchantId) {
    query = query.where('owner_type', '=', 'submerchant').where('owner_id', '=', filters.submerchantId);
  }
  return paginate(query, filters, COLUMNS);
}

/**
 * Cancels a wallet's anticipations not yet paid, with the reason, in the caller's transaction (a block of the
 * wallet's owner, which has already taken their receivables back: docs/decisions/submerchant-block.md).
 */
export async function cancelOpenAnticipations(
  trx: Kysely<Database>,
  outbox: Outbox,
  input: { walletId: string; reason: string; now: Date },
): Promise<number> {
  const open = await trx
    .selectFrom('anticipations')
    .select('id')
    .where('wallet_id', '=', input.walletId)
    .where('status', 'in', ['pending', 'approved'])
    .execute();
  let canceled = 0;
  for (const { id } of open) {
    const from: AnticipationStatus[] = ['pending', 'approved'];
    if (await transition(trx, outbox, { id, from, to: 'canceled', reason: input.reason, now: input.now })) {
      canceled++;
    }
  }
  return canceled;
}
