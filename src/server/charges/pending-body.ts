import type { Static } from '@sinclair/typebox';
import { validationError } from '../errors.js';
import { splitRulesOf } from '../split/schemas.js';
import type { NewPendingCharge, PendingMethod } from './pending.js';
import type { ChargeBody } from './schemas.js';

type Body = Static<typeof ChargeBody>;

const invalid = (field: string, message: string) =>
  validationError('The request body is invalid: see error.details.', [{ field, message }]);

/** A card charge needs its token and takes neither a PIX nor a boleto object. */
export function checkCardFields(body: Body): void {
  if (!body.card_token)
    throw invalid('card_token', 'card_token is required for payment_method "credit_card".');
  if (body.pix) throw invalid('pix', 'pix is for payment_method "pix".');
  if (body.boleto) throw invalid('boleto', 'boleto is for payment_method "boleto".');
}

/** The body of a PIX or boleto charge as the service takes it; a card token is refused (there is no card). */
export function pendingChargeOf(body: Body, method: PendingMethod, customer: NewPendingCharge['customer']) {
  if (body.card_token) {
    throw invalid('card_token', `A ${method} charge has no card: leave card_token out.`);
  }
  return {
    amount: body.amount,
    paymentMethod: method,
    installments: body.installments,
    fraudSessionId: body.fraud_session_id ?? null,
    submerchantId: body.submerchant_id ?? null,
    split: splitRulesOf(body.split),
    customer,
    pix: body.pix && { expiresIn: body.pix.expires_in },
    boleto: body.boleto && { dueDate: body.boleto.due_date, instructions: body.boleto.instructions ?? null },
  } satisfies NewPendingCharge;
}
