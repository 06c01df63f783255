import type { Kysely, Selectable } from 'kysely';
import { newId } from '../core/ids.js';
import { taxIdError } from '../core/tax-id.js';
import { fromJson, toJson } from '../db/columns.js';
import type { Database } from '../db/database.js';
import { businessRule, invalidState, notFound, validationError } from '../errors.js';
import { isFraudSessionReuse, recordFraudSessionReuseRefused } from '../fraud/reuse-refusals.js';
import type { Merchant } from '../merchants/service.js';
import { bookChargeCaptured, bookChargeRefunded, priceCharge } from '../receivables/book.js';
import { assessCharge } from '../risk/assess.js';
import type { DeviceGraphHasher } from '../risk/device-graph.js';
import type { LabelKeyer } from '../risk/labels.js';
import { testModeAnalysis } from '../risk/test-outcomes.js';
import type { FraudAnalysis, ReasonCode } from '../risk/types.js';
import { checkSplitRules, type SplitRule } from '../split/allocate.js';
import { checkSplitSubmerchants } from '../split/check.js';
import type { CardBrand } from '../tokens/card.js';
import type { Outbox } from '../webhooks/outbox.js';
import { type Authorization, acquirerKey, type CardAcquirer, FAILURE_MESSAGES } from './acquirer.js';
import type { BoletoDetails } from './boleto/issue.js';
import { consumeForCharge } from './consume.js';
import { type ChargeEventType, chargeEventData } from './events.js';
import { SUPPORTED_PAYMENT_METHODS } from './payment-methods.js';
import type { PixDetails } from './pix/issue.js';
import type { ChargesTable, ReviewCloser, ReviewDecision } from './table.js';

export type ChargeStatus = ChargesTable['status'];

export interface Charge {
  id: string;
  merchantId: string;
  amount: number;
  paymentMethod: string;
  installments: number;
  status: ChargeStatus;
  failureCode: string | null;
  failureMessage: string | null;
  customer: { name: string; email: string; document: string };
  /** Null for PIX and boleto. */
  card: { brand: CardBrand; last4: string; expMonth: number; expYear: number } | null;
  /** Read beside the charge for PIX and boleto (charges/payment-details.ts); undefined when not read. */
  pix?: PixDetails | null;
  boleto?: BoletoDetails | null;
  fraudSessionId: string | null;
  submerchantId: string | null;
  fraudAnalysis: FraudAnalysis;
  /** Set when the charge was held for a person's review (docs/charges.md, "Review"). */
  review: ChargeReview | null;
  canceledAt: string | null;
  split: SplitRule[] | null;
  refundedAt: string | null;
  /** When a pending charge (PIX, boleto) expires unpaid; null for card charges. */
  expiresAt: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface ChargeReview {
  openedAt: string;
  expiresAt: string;
  /** The fraud analysis's reasons that sent it to review. */
  reasons: ReasonCode[];
  /** Null while the review is open. */
  decision: ReviewDecision | null;
  closedAt: string | null;
  closedBy: ReviewCloser | null;
  /** The dashboard user who decided, when one did. */
  closedByUserId: string | null;
  note: string | null;
}

export interface NewCharge {
  amount: number;
  paymentMethod: string;
  cardToken: string;
  installments: number;
  fraudSessionId: string | null;
  submerchantId: string | null;
  split: SplitRule[] | null;
  customer: { name: string; email: string; document: string };
}

export function toCharge(row: Selectable<ChargesTable>): Charge {
  const reasons = fromJson<ReasonCode[]>(row.fraud_reasons, []);
  return {
    id: row.id,
    merchantId: row.merchant_id,
    amount: Number(row.amount),
    paymentMethod: row.payment_method,
    installments: Number(row.installments),
    status: row.status,
    failureCode: row.failure_code,
    failureMessage: row.failure_message,
    customer: { name: row.customer_name, email: row.customer_email, document: row.customer_document },
    card:
      row.card_brand === null
        ? null
        : {
            brand: row.card_brand as CardBrand,
            last4: row.card_last4 ?? '',
            expMonth: Number(row.card_exp_month),
            expYear: Number(row.card_exp_year),
          },
    fraudSessionId: row.fraud_session_id,
    submerchantId: row.submerchant_id,
    fraudAnalysis: {
      status: row.fraud_status,
      score: Number(row.fraud_score),
      reasons,
    },
    review:
      row.review_opened_at && row.review_expires_at
        ? {
            openedAt: row.review_opened_at,
            expiresAt: row.review_expires_at,
            reasons,
            decision: row.review_decision,
            closedAt: row.review_closed_at,
            closedBy: row.review_closed_by,
            closedByUserId: row.review_closed_by_user_id,
            note: row.review_note,
          }
        : null,
    canceledAt: row.canceled_at,
    split: fromJson<SplitRule[] | null>(row.split, null),
    refundedAt: row.refunded_at,
    expiresAt: row.expires_at,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

const reviewExpiry = (now: Date, windowHours: number) =>
  new Date(now.getTime() + windowHours * 3_600_000).toISOString();

function formatDocument(document: string): string {
  return document.length === 11
    ? document.replace(/^(\d{3})(\d{3})(\d{3})(\d{2})$/, '$1.$2.$3-$4')
    : document.replace(/^(\d{2})(\d{3})(\d{3})(\d{4})(\d{2})$/, '$1.$2.$3/$4-$5');
}

/** What `search` matches: id, name, e-mail and the document with and without its punctuation. */
export function chargeSearchText(id: string, customer: NewCharge['customer']): string {
  return [id, customer.name, customer.email, customer.document, formatDocument(customer.document)]
    .join('\n')
    .toLowerCase();
}

/**
 * A marketplace charge names the seller it is for: one of the merchant's own submerchants, an active one
 * (approved by review) and not blocked by the operator. Read inside the charge's transaction; an active
 * submerchant never leaves that status.
 */
export async function checkSubmerchant(trx: Kysely<Database>, merchantId: string, submerchantId: string) {
  const submerchant = await trx
    .selectFrom('submerchants')
    .select(['status', 'blocked_at'])
    .where('id', '=', submerchantId)
    .where('merchant_id', '=', merchantId)
    .executeTakeFirst();
  if (!submerchant) {
    throw businessRule(
      'SUBMERCHANT_NOT_FOUND',
      `submerchant_id ${submerchantId} is not one of your submerchants: register it with POST /v1/submerchants.`,
      [{ field: 'submerchant_id', message: 'submerchant_id was not found.' }],
    );
  }
  if (submerchant.status !== 'active') {
    throw businessRule(
      'SUBMERCHANT_NOT_ACTIVE',
      `Submerchant ${submerchantId} is ${submerchant.status}: only an active submerchant (approved by review) can receive charges.`,
      [{ field: 'submerchant_id', message: `The submerchant is ${submerchant.status}, not active.` }],
    );
  }
  if (submerchant.blocked_at !== null) {
    throw businessRule(
      'SUBMERCHANT_BLOCKED',
      `Submerchant ${submerchantId} is blocked by the platform operator: it cannot receive charges.`,
      [{ field: 'submerchant_id', message: 'The submerchant is blocked.' }],
    );
  }
}

/** The checks a schema cannot express; all 400 or 422 before anything is read or written. */
export function checkNewCharge(
  merchant: Merchant,
  input: Pick<NewCharge, 'customer' | 'paymentMethod' | 'fraudSessionId'>,
): void {
  const documentError = taxIdError('customer.document', input.customer.document, 'either');
  if (documentError) {
    throw validationError('The request body is invalid: see error.details.', [
      { field: 'customer.document', message: documentError },
    ]);
  }
  if (!(SUPPORTED_PAYMENT_METHODS as readonly string[]).includes(input.paymentMethod)) {
    throw businessRule(
      'PAYMENT_METHOD_NOT_SUPPORTED',
      `The payment method "${input.paymentMethod.slice(0, 50)}" is not supported. Supported payment methods: ` +
        `${SUPPORTED_PAYMENT_METHODS.join(', ')}.`,
      [
        {
          field: 'payment_method',
          message: `payment_method must be one of: ${SUPPORTED_PAYMENT_METHODS.join(', ')}.`,
        },
      ],
    );
  }
  if (merchant.fraudAnalysisMandatory && !input.fraudSessionId) {
    throw businessRule(
      'FRAUD_SESSION_REQUIRED',
      'Your account requires fraud analysis on every charge: pass fraud_session_id, the sessionId that ' +
        'sdk.fraudAnalysis.setup() returned on your checkout page.',
      [{ field: 'fraud_session_id', message: 'fraud_session_id is required for your account.' }],
    );
  }
}

/**
 * Authorizes the card and, when approved, captures the whole amount at once, unless the charge is held for review:
 * then the authorization waits for the decision (charges/review.ts) and nothing is taken yet.
 */
async function authorizeAndCapture(
  acquirer: CardAcquirer,
  chargeId: string,
  request: { card: { hash: string }; amount: number; installments: number; hold: boolean },
): Promise<Authorization> {
  const { hold, ...authorize } = request;
  const authorization = await acquirer.authorize({
    ...authorize,
    idempotencyKey: acquirerKey(chargeId, 'authorize'),
  });
  if (authorization.approved && !hold) {
    await acquirer.capture({
      authorizationId: authorization.authorizationId,
      amount: request.amount,
      idempotencyKey: acquirerKey(chargeId, 'capture'),
    });
  }
  return authorization;
}

/**
 * Creates a charge. In one transaction: consume the card token, consume the fraud session (when given), run the
 * risk engine, ask the acquirer (unless the analysis declined), write the charge and its event. Any refusal
 * rolls everything back: a charge refused for its session leaves its token usable, and the reverse.
 */
export async function createCharge(
  db: Kysely<Database>,
  input: {
    merchant: Merchant;
    charge: NewCharge;
    acquirer: CardAcquirer;
    outbox: Outbox;
    now: Date;
    /** Runs last in the charge's transaction (the route records its idempotent response there). */
    whenCreated?: (trx: Kysely<Database>, charge: Charge) => Promise<void>;
    /** A test key made the call: test outcomes (risk/test-outcomes.ts) apply. */
    testMode?: boolean;
    /** The keyed hashes of the platform-wide device graph the risk step reads and adds to. */
    deviceGraph: DeviceGraphHasher;
    /** The keyed hashes fraud labels are found by (risk/labels.ts). */
    labelKeyer: LabelKeyer;
  },
): Promise<Charge> {
  const { merchant, charge, acquirer, outbox, now, testMode = false } = input;
  checkNewCharge(merchant, charge);
  if (charge.split) checkSplitRules(charge.amount, charge.split);
  const chargeId = newId();
  const timestamp = now.toISOString();

  const charged = db.transaction().execute(async (trx) => {
    if (charge.submerchantId) await checkSubmerchant(trx, merchant.id, charge.submerchantId);
    if (charge.split) await checkSplitSubmerchants(trx, merchant.id, charge.split);
    // Priced before the card is charged: a split that cannot pay the fee is refused with nothing taken.
    const bookable = { id: chargeId, merchantId: merchant.id, ...charge };
    const priced = await priceCharge(trx, bookable);
    const { token, session } = await consumeForCharge(trx, {
      merchantId: merchant.id,
      tokenId: charge.cardToken,
      sessionId: charge.fraudSessionId,
      chargeId,
      now,
    });
    const card = token.card;

    const assessed = await assessCharge(trx, {
      merchant,
      session,
      cardHash: card.hash,
      customer: { document: charge.customer.document, email: charge.customer.email },
      now,
      deviceGraph: input.deviceGraph,
      labelKeyer: input.labelKeyer,
    });
    const { visitorId } = assessed;
    const analysis =
      (await testModeAnalysis(trx, { testMode, merchantId: merchant.id, charge })) ?? assessed.analysis;

    // A review holds the authorization for a person (or the review window's end) to decide on.
    const hold = analysis.status === 'review';
    const decision =
      analysis.status === 'declined'
        ? { approved: false as const, code: 'fraud_declined', message: FAILURE_MESSAGES.fraud_declined }
        : await authorizeAndCapture(acquirer, chargeId, {
            card,
            amount: charge.amount,
            installments: charge.installments,
            hold,
          });
    const held = hold && decision.approved;
    const row: ChargesTable = {
      id: chargeId,
      merchant_id: merchant.id,
      amount: charge.amount,
      payment_method: charge.paymentMethod,
      installments: charge.installments,
      status: held ? 'in_review' : decision.approved ? 'captured' : 'failed',
      failure_code: decision.approved ? null : decision.code,
      failure_message: decision.approved ? null : decision.message,
      customer_name: charge.customer.name,
      customer_email: charge.customer.email,
      customer_document: charge.customer.document,
      customer_document_type: charge.customer.document.length === 11 ? 'cpf' : 'cnpj',
      card_token_id: token.id,
      card_brand: card.brand,
      card_bin: card.bin,
      card_last4: card.last4,
      card_exp_month: card.expMonth,
      card_exp_year: card.expYear,
      card_holder_name: card.holderName,
      card_hash: card.hash,
      fraud_session_id: charge.fraudSessionId,
      submerchant_id: charge.submerchantId,
      visitor_id: visitorId,
      fraud_status: analysis.status,
      fraud_score: analysis.score,
      fraud_reasons: toJson(analysis.reasons),
      search_text: chargeSearchText(chargeId, charge.customer),
      acquirer_reference: decision.approved ? decision.authorizationId : null,
      review_opened_at: held ? timestamp : null,
      review_expires_at: held ? reviewExpiry(now, merchant.review.windowHours) : null,
      review_decision: null,
      review_closed_at: null,
      review_closed_by: null,
      review_closed_by_user_id: null,
      review_note: null,
      canceled_at: null,
      split: charge.split && toJson(charge.split),
      refunded_at: null,
      expires_at: null,
      created_at: timestamp,
      updated_at: timestamp,
    };
    const created = toCharge(row);
    const type: ChargeEventType =
      created.status === 'in_review'
        ? 'charge.review_opened'
        : created.status === 'captured'
          ? 'charge.captured'
          : 'charge.failed';
    await outbox.recordEvent(trx, {
      merchantId: merchant.id,
      type,
      data: chargeEventData(created),
      now,
      change: { table: 'charges', row },
    });
    if (created.status === 'captured') await bookChargeCaptured(trx, { charge: bookable, now, priced });
    await input.whenCreated?.(trx, created);
    return created;
  });
  // A refused reuse of a fraud session is counted once the charge has rolled back, which would erase it.
  return charged.catch(async (error: unknown) => {
    if (isFraudSessionReuse(error)) await recordFraudSessionReuseRefused(db, merchant.id, now);
    throw error;
  });
}

export async function getCharge(
  db: Kysely<Database>,
  merchantId: string,
  id: string,
): Promise<Charge | null> {
  const row = await db
    .selectFrom('charges')
    .selectAll()
    .where('id', '=', id)
    .where('merchant_id', '=', merchantId)
    .executeTakeFirst();
  return row ? toCharge(row) : null;
}

/** Refunds the whole amount of a captured charge; any other status is a 409. */
export async function refundCharge(
  db: Kysely<Database>,
  input: { merchantId: string; chargeId: string; acquirer: CardAcquirer; outbox: Outbox; now: Date },
): Promise<Charge> {
  const timestamp = input.now.toISOString();
  return db.transaction().execute(async (trx) => {
    const row = await trx
      .updateTable('charges')
      .set({ status: 'refunded', refunded_at: timestamp, updated_at: timestamp })
      .where('id', '=', input.chargeId)
      .where('merchant_id', '=', input.merchantId)
      .where('status', '=', 'captured')
      .returningAll()
      .executeTakeFirst();
    if (!row) {
      const current = await getCharge(trx, input.merchantId, input.chargeId);
      if (!current) throw notFound('Charge');
      throw invalidState(
        current.status === 'refunded'
          ? 'This charge was already refunded.'
          : current.status === 'in_review'
            ? 'This charge is held for review and nothing was captured: reject the review (POST /v1/charges/:id/review) to release the authorization.'
            : current.status === 'canceled'
              ? 'This charge was canceled after its review was rejected: nothing was taken from the card, so there is nothing to refund.'
              : `Only captured charges can be refunded; this charge is ${current.status} (${current.failureCode}), so nothing was taken from the card.`,
      );
    }
    const refunded = toCharge(row);
    // Booked before the acquirer is asked: a refund the recipients' balances cannot cover is refused first.
    await bookChargeRefunded(trx, { charge: refunded, now: input.now });
    // Inside the transaction: a refusal by the acquirer rolls the status back, and its key makes a retry safe.
    // A charge captured before its reference was kept (migration 0050) has none to name.
    if (row.acquirer_reference) {
      await input.acquirer.refund({
        authorizationId: row.acquirer_reference,
        amount: refunded.amount,
        idempotencyKey: acquirerKey(refunded.id, 'refund'),
      });
    }
    await input.outbox.recordEvent(trx, {
      merchantId: input.merchantId,
      type: 'charge.refunded' satisfies ChargeEventType,
      data: chargeEventData(refunded),
      now: input.now,
    });
    return refunded;
  });
}
