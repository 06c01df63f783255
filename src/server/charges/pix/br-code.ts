/**
 * The BR Code of a PIX charge: the EMV® QR Code merchant-presented payload as the central bank's "Manual de Padrões
 * para Iniciação do Pix" fixes it. Every field is ID (2 digits), length (2 digits), value. A dynamic code names no
 * key: its merchant account information carries the PSP's location URL (without scheme), where the bank app
 * fetches the charge (txid, amount, expiry) signed by the PSP; the additional data field's reference label is then
 * `***`. The amount is written too (field 54) so that an app shows it before fetching. docs/decisions/pix-dynamic-br-code.md
 */
export interface BrCodeInput {
  /** The PSP's payload location, without `https://` (at most 77 characters). */
  location: string;
  /** Minor units (centavos). */
  amount: number;
  merchantName: string;
  merchantCity: string;
  /** Merchant category code; 0000 when not informed. */
  mcc?: string;
}

const field = (id: string, value: string) => {
  if (value.length > 99) throw new Error(`BR Code field ${id} is longer than 99 characters.`);
  return `${id}${String(value.length).padStart(2, '0')}${value}`;
};

/** Upper-case ASCII without accents: bank apps render only that, and field lengths count characters. */
export function emvText(text: string, maxLength: number): string {
  const ascii = text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^A-Za-z0-9 .,\-/&]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .toUpperCase();
  return ascii.slice(0, maxLength).trim() || 'VIGIA';
}

/** CRC16/CCITT-FALSE (polynomial 0x1021, initial 0xFFFF) over the payload up to and including `6304`. */
export function crc16(payload: string): string {
  let crc = 0xffff;
  for (const byte of Buffer.from(payload, 'utf8')) {
    crc ^= byte << 8;
    for (let bit = 0; bit < 8; bit += 1)
      crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc.toString(16).toUpperCase().padStart(4, '0');
}

export function dynamicBrCode(input: BrCodeInput): string {
  const reais = (input.amount / 100).toFixed(2);
  const payload = [
    field('00', '01'),
    // 12: the code is for one payment only.
    field('01', '12'),
    field('26', field('00', 'br.gov.bcb.pix') + field('25', input.location)),
    field('52', input.mcc ?? '0000'),
    field('53', '986'),
    field('54', reais),
    field('58', 'BR'),
    field('59', emvText(input.merchantName, 25)),
    field('60', emvText(input.merchantCity, 15)),
    field('62', field('05', '***')),
    '6304',
  ].join('');
  return payload + crc16(payload);
}
