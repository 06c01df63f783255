import type { Kysely } from 'kysely';
import { newId } from '../core/ids.js';
import { toJson } from '../db/columns.js';
import type { Database } from '../db/database.js';
import { invalidState, notFound, validationError } from '../errors.js';
import { chargeFraudSessionError } from '../fraud/errors.js';
import { isFraudSessionReuse, recordFraudSessionReuseRefused } from '../fraud/reuse-refusals.js';
import { consumeFraudSession } from '../fraud/service.js';
import type { Merchant } from '../merchants/service.js';
import { bookableOf, bookChargeCaptured, priceCharge } from '../receivables/book.js';
import { assessCharge } from '../risk/assess.js';
import type { DeviceGraphHasher } from '../risk/device-graph.js';
import type { LabelKeyer } from '../risk/labels.js';
import { testModeAnalysis } from '../risk/test-outcomes.js';
import { checkSplitRules, type SplitRule } from '../split/allocate.js';
import { checkSplitSubmerchants } from '../split/check.js';
import type { Outbox } from '../webhooks/outbox.js';
import { FAILURE_MESSAGES } from './acquirer.js';
import { MAX_BOLETO_AMOUNT } from './boleto/barcode.js';
import { addDays, type BoletoDetails, boletoExpiresAt, brazilToday, issueBoleto } from './boleto/issue.js';
import { BOLETO_MAX_DAYS_AHEAD } from './boleto/schemas.js';
import type { ChargeEventType } from './events.js';
import { withPaymentDetails } from './payment-details.js';
import { issuePix, type PixDetails } from './pix/issue.js';
import { PIX_EXPIRES_IN } from './pix/schemas.js';
import { presentCharge } from './present.js';
import type { PaymentServiceProvider } from './psp.js';
import {
  type Charge,
  chargeSearchText,
  checkNewCharge,
  checkSubmerchant,
  getCharge,
  toCharge,
} from './service.js';
import type { ChargesTable } from './table.js';

/** PIX and boleto: the charges that wait, pending, for the buyer to pay (docs/charges.md). */
export type PendingMethod = 'pix' | 'boleto';

export interface NewPendingCharge {
  amount: number;
  paymentMethod: PendingMethod;
  installments: number;
  fraudSessionId: string | null;
  submerchantId: string | null;
  /** Booked when the charge is paid, as a card charge's is when captured. */
  split: SplitRule[] | null;
  customer: { name: string; email: string; document: string };
  pix?: { expiresIn?: number };
  boleto?: { dueDate: string; instructions?: string | null };
}

/** The checks a schema cannot express, per method; 400 before anything is read or written. */
function checkPendingCharge(charge: NewPendingCharge, now: Date): void {
  const fail = (field: string, message: string) =>
    validationError('The request body is invalid: see error.details.', [{ field, message }]);
  if (charge.installments !== 1) {
    throw fail('installments', `A ${charge.paymentMethod} charge is paid at once: installments must be 1.`);
  }
  if (charge.paymentMethod === 'pix' && charge.boleto) {
    throw fail('boleto', 'boleto is for payment_method "boleto"; a PIX charge takes pix (optional).');
  }
  if (charge.paymentMethod === 'boleto') {
    if (charge.pix) throw fail('pix', 'pix is for payment_method "pix"; a boleto charge takes boleto.');
    if (!charge.boleto)
      throw fail('boleto', 'boleto (with due_date) is required for payment_method "boleto".');
    if (charge.amount > MAX_BOLETO_AMOUNT) {
      throw fail('amount', `A boleto holds at most ${MAX_BOLETO_AMOUNT} centavos (ten digits).`);
    }
    const today = brazilToday(now);
    const last = addDays(today, BOLETO_MAX_DAYS_AHEAD);
    const { dueDate } = charge.boleto;
    if (dueDate < today || dueDate > last) {
      throw fail(
        'boleto.due_date',
        `due_date must be from today (${today}, Brazil's date) to ${last} (${BOLETO_MAX_DAYS_AHEAD} days ahead).`,
      );
    }
  }
}

/**
 * Creates a PIX or boleto charge. In one transaction: consume the fraud session (when given), run the risk engine
 * on what applies without a card (device, velocity, buyer), and, unless the analysis declined, issue the BR Code or
 * the boleto with the PSP and write the charge `pending` until `expires_at`. A declined analysis writes a failed
 * charge (fraud_declined) and issues nothing.
 */
export async function createPendingCharge(
  db: Kysely<Database>,
  input: {
    merchant: Merchant;
    charge: NewPendingCharge;
    psp: PaymentServiceProvider;
    outbox: Outbox;
    now: Date;
    publicOrigin: string;
    whenCreated?: (trx: Kysely<Database>, charge: Charge) => Promise<void>;
    testMode?: boolean;
    deviceGraph: DeviceGraphHasher;
    /** The keyed hashes the fraud-label rules match (risk/labels.ts). */
    labelKeyer: LabelKeyer;
  },
): Promise<Charge> {
  const { merchant, charge, psp, outbox, now, testMode = false } = input;
  checkNewCharge(merchant, charge);
  checkPendingCharge(charge, now);
  if (charge.split) checkSplitRules(charge.amount, charge.split);
  const chargeId = newId();
  const timestamp = now.toISOString();

  const charged = db.transaction().execute(async (trx) => {
    if (charge.submerchantId) await checkSubmerchant(trx, merchant.id, charge.submerchantId);
    if (charge.split) {
      await checkSplitSubmerchants(trx, merchant.id, charge.split);
      // Priced now, as a card charge is before its capture: a split that cannot pay the fee is refused before
      // anything is issued, rather than when the buyer's money arrives.
      await priceCharge(trx, { id: chargeId, merchantId: merchant.id, ...charge });
    }
    const session = charge.fraudSessionId
      ? await consumeFraudSession(trx, {
          merchantId: merchant.id,
          sessionId: charge.fraudSessionId,
          chargeId,
          now,
        })
      : null;
    if (session && !session.ok) throw chargeFraudSessionError(session.reason);
    const assessed = await assessCharge(trx, {
      merchant,
      session: session?.session ?? null,
      cardHash: null,
      customer: { document: charge.customer.document, email: charge.customer.email },
      now,
      deviceGraph: input.deviceGraph,
      labelKeyer: input.labelKeyer,
    });
    const analysis =
      (await testModeAnalysis(trx, { testMode, merchantId: merchant.id, charge })) ?? assessed.analysis;
    const declined = analysis.status === 'declined';

    let pix: PixDetails | null = null;
    let boleto: BoletoDetails | null = null;
    if (!declined && charge.paymentMethod === 'pix') {
      pix = await issuePix(psp, {
        chargeId,
        amount: charge.amount,
        merchantName: merchant.name,
        expiresInSeconds: charge.pix?.expiresIn ?? PIX_EXPIRES_IN.default,
        now,
      });
    }
    if (!declined && charge.paymentMethod === 'boleto' && charge.boleto) {
      boleto = await issueBoleto(psp, {
        chargeId,
        amount: charge.amount,
        dueDate: charge.boleto.dueDate,
        instructions: charge.boleto.instructions ?? null,
        payer: { name: charge.customer.name, document: charge.customer.document },
        publicOrigin: input.publicOrigin,
      });
    }
    const row: ChargesTable = {
      id: chargeId,
      merchant_id: merchant.id,
      amount: charge.amount,
      payment_method: charge.paymentMethod,
      installments: 1,
      status: declined ? 'failed' : 'pending',
      failure_code: declined ? 'fraud_declined' : null,
      failure_message: declined ? FAILURE_MESSAGES.fraud_declined : null,
      customer_name: charge.customer.name,
      customer_email: charge.customer.email,
      customer_document: charge.customer.document,
      customer_document_type: charge.customer.document.length === 11 ? 'cpf' : 'cnpj',
      card_token_id: null,
      card_brand: null,
      card_bin: null,
      card_last4: null,
      card_exp_month: null,
      card_exp_year: null,
      card_holder_name: null,
      card_hash: null,
      fraud_session_id: charge.fraudSessionId,
      submerchant_id: charge.submerchantId,
      visitor_id: assessed.visitorId,
      fraud_status: analysis.status,
      fraud_score: analysis.score,
      fraud_reasons: toJson(analysis.reasons),
      search_text: chargeSearchText(chargeId, charge.customer),
      acquirer_reference: null,
      split: charge.split && toJson(charge.split),
      review_opened_at: null,
      review_expires_at: null,
      review_decision: null,
      review_closed_at: null,
      review_closed_by: null,
      review_closed_by_user_id: null,
      review_note: null,
      canceled_at: null,
      refunded_at: null,
      expires_at: pix?.expiresAt ?? (boleto ? boletoExpiresAt(boleto.dueDate) : null),
      created_at: timestamp,
      updated_at: timestamp,
    };
    await trx.insertInto('charges').values(row).execute();
    if (pix) {
      const { txid, location, brCode, qrCodeSvg } = pix;
      await trx
        .insertInto('charge_pix')
        .values({ charge_id: chargeId, txid, location, br_code: brCode, qr_code_svg: qrCodeSvg })
        .execute();
    }
    if (boleto) {
      await trx
        .insertInto('charge_boleto')
        .values({
          charge_id: chargeId,
          bank: boleto.bank,
          our_number: boleto.ourNumber,
          barcode: boleto.barcode,
          digitable_line: boleto.digitableLine,
          due_date: boleto.dueDate,
          instructions: boleto.instructions,
          page_token: boleto.pageToken,
          url: boleto.url,
        })
        .execute();
    }
    const created: Charge = { ...toCharge(row), pix, boleto };
    if (declined) {
      await outbox.recordEvent(trx, {
        merchantId: merchant.id,
        type: 'charge.failed' satisfies ChargeEventType,
        data: presentCharge(created),
        now,
      });
    }
    await input.whenCreated?.(trx, created);
    return created;
  });
  return charged.catch(async (error: unknown) => {
    if (isFraudSessionReuse(error)) await recordFraudSessionReuseRefused(db, merchant.id, now);
    throw error;
  });
}

/** What a pending charge's settlement hooks get: the ledger books a paid charge's receivables in its transaction. */
export type WhenPaid = (trx: Kysely<Database>, charge: Charge) => Promise<void>;

/**
 * The PSP reports that the buyer paid a pending charge: one conditional UPDATE moves it to `paid` (so two reports,
 * or two instances, pay it once) and `charge.paid` is recorded with it. A payment after `expires_at`, or of a
 * charge no longer pending, is refused: it is recorded (charge_late_payments: the PSP returns it to the payer),
 * an unexpired-but-overdue charge is expired on the way, and the answer is 409.
 */
export async function recordPayment(
  db: Kysely<Database>,
  input: {
    merchantId: string;
    chargeId: string;
    outbox: Outbox;
    now: Date;
    whenPaid?: WhenPaid;
  },
): Promise<Charge> {
  const { merchantId, chargeId, outbox, now } = input;
  const timestamp = now.toISOString();
  const paid = await db.transaction().execute(async (trx) => {
    const row = await trx
      .updateTable('charges')
      .set({ status: 'paid', updated_at: timestamp })
      .where('id', '=', chargeId)
      .where('merchant_id', '=', merchantId)
      .where('status', '=', 'pending')
      .where('expires_at', '>', timestamp)
      .returningAll()
      .executeTakeFirst();
    if (!row) return null;
    await bookChargeCaptured(trx, { charge: bookableOf(row), now });
    const [charge] = await withPaymentDetails(trx, [toCharge(row)]);
    await outbox.recordEvent(trx, {
      merchantId,
      type: 'charge.paid' satisfies ChargeEventType,
      data: presentCharge(charge!),
      now,
    });
    await input.whenPaid?.(trx, charge!);
    return charge!;
  });
  if (paid) return paid;

  const current = await getCharge(db, merchantId, chargeId);
  if (!current) throw notFound('Charge');
  if (current.paymentMethod !== 'pix' && current.paymentMethod !== 'boleto') {
    throw invalidState(
      `Only PIX and boleto charges are paid this way; this is a ${current.paymentMethod} charge.`,
    );
  }
  if (current.status === 'failed') {
    throw invalidState('This charge failed (fraud_declined): nothing was issued, so nothing can be paid.');
  }
  if (current.status === 'pending') await expireCharge(db, { merchantId, chargeId, outbox, now });
  await db
    .insertInto('charge_late_payments')
    .values({
      id: newId(),
      charge_id: chargeId,
      merchant_id: merchantId,
      amount: current.amount,
      charge_status: current.status === 'pending' ? 'expired' : current.status,
      received_at: timestamp,
    })
    .execute();
  throw invalidState(
    current.status === 'paid'
      ? 'This charge was already paid; the second payment was refused and recorded (it goes back to the payer).'
      : 'This charge expired before the payment arrived; the payment was refused and recorded (it goes back to ' +
          'the payer). Create a new charge.',
  );
}

/**
 * Expires one pending charge whose time has come: a conditional UPDATE (status still pending, expires_at passed),
 * so that of two instances, or a payment racing the job, one wins; `charge.expired` is recorded with it.
 */
export async function expireCharge(
  db: Kysely<Database>,
  input: { merchantId?: string; chargeId: string; outbox: Outbox; now: Date },
): Promise<boolean> {
  const timestamp = input.now.toISOString();
  return db.transaction().execute(async (trx) => {
    let update = trx
      .updateTable('charges')
      .set({ status: 'expired', updated_at: timestamp })
      .where('id', '=', input.chargeId)
      .where('status', '=', 'pending')
      .where('expires_at', '<=', timestamp);
    if (input.merchantId) update = update.where('merchant_id', '=', input.merchantId);
    const row = await update.returningAll().executeTakeFirst();
    if (!row) return false;
    const [charge] = await withPaymentDetails(trx, [toCharge(row)]);
    await input.outbox.recordEvent(trx, {
      merchantId: row.merchant_id,
      type: 'charge.expired' satisfies ChargeEventType,
      data: presentCharge(charge!),
      now: input.now,
    });
    return true;
  });
}

/** The expiry job's one pass: the pending charges past expires_at (the partial index of 0060), oldest first. */
export async function expireDueCharges(
  db: Kysely<Database>,
  outbox: Outbox,
  now: Date,
  batch = 100,
): Promise<number> {
  const due = await db
    .selectFrom('charges')
    .select('id')
    .where('status', '=', 'pending')
    .where('expires_at', '<=', now.toISOString())
    .orderBy('expires_at')
    .limit(batch)
    .execute();
  let expired = 0;
  for (const { id } of due) {
    if (await expireCharge(db, { chargeId: id, outbox, now })) expired += 1;
  }
  return expired;
}
