import { Type } from '@sinclair/typebox';

/** A boleto is due today to 180 days ahead (Brazil's date, America/Sao_Paulo). */
export const BOLETO_MAX_DAYS_AHEAD = 180;
/** Days after the due date a payment is still accepted (banks report a payment made on the due date late). */
export const BOLETO_GRACE_DAYS = 3;

export const BoletoBody = Type.Object(
  {
    due_date: Type.String({
      format: 'date',
      description: `YYYY-MM-DD, from today to ${BOLETO_MAX_DAYS_AHEAD} days ahead (Brazil's date).`,
    }),
    instructions: Type.Optional(
      Type.String({
        maxLength: 200,
        description: 'Printed on the boleto for the bank teller (200 characters).',
      }),
    ),
  },
  { additionalProperties: false, description: 'Required with payment_method "boleto".' },
);

export const BoletoSchema = Type.Object(
  {
    barcode: Type.String({ pattern: '^\\d{44}$', description: 'The 44 digits of the barcode.' }),
    digitable_line: Type.String({
      pattern: '^\\d{47}$',
      description: 'The 47 digits a buyer types in the bank app (the "linha digitável").',
    }),
    due_date: Type.String({ format: 'date' }),
    our_number: Type.String({ description: 'The boleto\'s number at the issuing bank ("nosso número").' }),
    url: Type.String({
      description:
        'The printable boleto (HTML): no key needed, its address is unguessable. Share it with the buyer only.',
    }),
  },
  { description: 'A boleto charge: what the buyer pays with. Null for other payment methods.' },
);
