import { formatDigitableLine } from './barcode.js';
import { interleaved2of5Svg } from './interleaved-2-of-5.js';

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);

const reais = (centavos: number) =>
  `R$ ${(centavos / 100).toLocaleString('pt-BR', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

/** The printable boleto: the payer's copy, the digitable line and the barcode (SVG, I2of5), print CSS included. */
export function boletoPage(boleto: {
  merchantName: string;
  amount: number;
  dueDate: string;
  ourNumber: string;
  digitableLine: string;
  barcode: string;
  instructions: string | null;
  payer: { name: string; document: string };
  status: string;
}): string {
  const [year, month, day] = boleto.dueDate.split('-');
  const rows: [string, string][] = [
    ['Beneficiário', boleto.merchantName],
    ['Pagador', `${boleto.payer.name} (${boleto.payer.document})`],
    ['Vencimento', `${day}/${month}/${year}`],
    ['Valor', reais(boleto.amount)],
    ['Nosso número', boleto.ourNumber],
  ];
  if (boleto.instructions) rows.push(['Instruções', boleto.instructions]);
  const notice =
    boleto.status === 'pending'
      ? ''
      : `<p class="status">Este boleto está ${boleto.status === 'paid' ? 'pago' : 'vencido e não pode mais ser pago'}.</p>`;
  return `<!doctype html>
<html lang="pt-BR"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex"><title>Boleto ${escapeHtml(boleto.ourNumber)}</title>
<style>
body{font:14px/1.4 system-ui,sans-serif;margin:2rem auto;max-width:46rem;color:#111;padding:0 1rem}
h1{font-size:1.2rem}table{border-collapse:collapse;width:100%}th,td{border:1px solid #999;padding:.4rem;text-align:left}
th{width:10rem;background:#f3f3f3}.line{font:600 1.05rem ui-monospace,monospace;margin:1.2rem 0;word-spacing:.3rem}
.barcode svg{width:100%;max-width:40rem;height:3.2rem}.status{font-weight:600;color:#a00}
@media print{body{margin:0;max-width:none}th{background:none}button{display:none}@page{size:A4;margin:12mm}}
</style></head><body>
<h1>Boleto bancário</h1>${notice}
<p class="line" data-testid="digitable-line">${escapeHtml(formatDigitableLine(boleto.digitableLine))}</p>
<table>${rows.map(([label, value]) => `<tr><th>${escapeHtml(label)}</th><td>${escapeHtml(value)}</td></tr>`).join('')}</table>
<div class="barcode" data-testid="barcode">${interleaved2of5Svg(boleto.barcode, { height: 50 })}</div>
</body></html>`;
}
