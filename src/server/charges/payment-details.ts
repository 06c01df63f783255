import type { Kysely } from 'kysely';
import type { Database } from '../db/database.js';
import type { BoletoDetails } from './boleto/issue.js';
import type { PixDetails } from './pix/issue.js';
import type { Charge } from './service.js';

/**
 * Fills in what PIX and boleto charges issued (their side tables, migration 0061): one query per method, and
 * only for the methods among `charges`, so a page of card charges costs nothing more.
 */
export async function withPaymentDetails<C extends Charge>(db: Kysely<Database>, charges: C[]): Promise<C[]> {
  const idsOf = (method: string) =>
    charges.filter((charge) => charge.paymentMethod === method).map((charge) => charge.id);
  const pixIds = idsOf('pix');
  const boletoIds = idsOf('boleto');
  const [pix, boleto] = await Promise.all([
    pixIds.length === 0
      ? []
      : db.selectFrom('charge_pix').selectAll().where('charge_id', 'in', pixIds).execute(),
    boletoIds.length === 0
      ? []
      : db.selectFrom('charge_boleto').selectAll().where('charge_id', 'in', boletoIds).execute(),
  ]);
  const pixById = new Map(pix.map((row) => [row.charge_id, row]));
  const boletoById = new Map(boleto.map((row) => [row.charge_id, row]));
  return charges.map((charge) => {
    const pixRow = pixById.get(charge.id);
    const boletoRow = boletoById.get(charge.id);
    return {
      ...charge,
      pix: pixRow
        ? ({
            txid: pixRow.txid,
            location: pixRow.location,
            brCode: pixRow.br_code,
            qrCodeSvg: pixRow.qr_code_svg,
            expiresAt: charge.expiresAt ?? '',
          } satisfies PixDetails)
        : null,
      boleto: boletoRow
        ? ({
            bank: boletoRow.bank,
            barcode: boletoRow.barcode,
            digitableLine: boletoRow.digitable_line,
            dueDate: boletoRow.due_date,
            ourNumber: boletoRow.our_number,
            instructions: boletoRow.instructions,
            pageToken: boletoRow.page_token,
            url: boletoRow.url,
          } satisfies BoletoDetails)
        : null,
    };
  });
}
