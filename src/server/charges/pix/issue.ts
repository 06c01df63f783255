import QRCode from 'qrcode';
import { type PaymentServiceProvider, pspKey } from '../psp.js';
import { dynamicBrCode } from './br-code.js';

export interface PixDetails {
  txid: string;
  location: string;
  brCode: string;
  qrCodeSvg: string;
  expiresAt: string;
}

/** The charge's id without its dashes: 32 hexadecimal characters, within the API Pix's 26–35. */
export const txidOf = (chargeId: string) => chargeId.replaceAll('-', '');

/**
 * Registers the PIX charge with the PSP and writes its BR Code and QR code. The receiver's name is the merchant's
 * (what the buyer's bank app shows), the city the PSP account's. docs/decisions/pix-dynamic-br-code.md
 */
export async function issuePix(
  psp: PaymentServiceProvider,
  input: { chargeId: string; amount: number; merchantName: string; expiresInSeconds: number; now: Date },
): Promise<PixDetails> {
  const txid = txidOf(input.chargeId);
  const { location } = await psp.createPixCharge({
    txid,
    amount: input.amount,
    expiresInSeconds: input.expiresInSeconds,
    idempotencyKey: pspKey(input.chargeId, 'pix'),
  });
  const brCode = dynamicBrCode({
    location,
    amount: input.amount,
    merchantName: input.merchantName,
    merchantCity: psp.pixMerchantCity,
  });
  // M: 15 % of the code may be damaged (a phone screen's glare), still a small code for ~150 characters.
  const qrCodeSvg = await QRCode.toString(brCode, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
  const expiresAt = new Date(input.now.getTime() + input.expiresInSeconds * 1000).toISOString();
  return { txid, location, brCode, qrCodeSvg, expiresAt };
}
