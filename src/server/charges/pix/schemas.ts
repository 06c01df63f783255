import { Type } from '@sinclair/typebox';
import { Timestamp } from '../../http/envelope.js';

/** A PIX charge waits 1 minute to 7 days for its payment; 1 hour by default. */
export const PIX_EXPIRES_IN = { default: 3600, minimum: 60, maximum: 7 * 24 * 3600 } as const;

export const PixBody = Type.Object(
  {
    expires_in: Type.Optional(
      Type.Integer({
        ...PIX_EXPIRES_IN,
        description: `Seconds the buyer has to pay: ${PIX_EXPIRES_IN.minimum}–${PIX_EXPIRES_IN.maximum}, ${PIX_EXPIRES_IN.default} by default.`,
      }),
    ),
  },
  { additionalProperties: false, description: 'With payment_method "pix" (optional).' },
);

export const PixSchema = Type.Object(
  {
    txid: Type.String({ description: "The charge's id at the PSP (26–35 letters and digits)." }),
    br_code: Type.String({
      description: 'The dynamic BR Code: the PIX "copy and paste" text, and what the QR code holds.',
    }),
    qr_code_svg: Type.String({ description: 'The QR code of br_code, as an SVG document.' }),
    expires_at: Timestamp,
  },
  { description: 'A PIX charge: what the buyer pays with. Null for other payment methods.' },
);
