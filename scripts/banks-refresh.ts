// Regenerates src/server/banks/data/banks.json, the Brazilian banks the API lists (GET /v1/banks), from the npm
// package bancos-brasileiros (a dev dependency; the service never fetches the list at run time). To refresh:
// `npm install -D bancos-brasileiros@latest && npm run banks:refresh`, then review and commit the diff.
// Why this dataset and how its licence was read: docs/decisions/brazilian-banks-dataset.md.
import fs from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';

const require = createRequire(import.meta.url);
export const BANKS_FILE = path.resolve(import.meta.dirname, '../src/server/banks/data/banks.json');

interface UpstreamBank {
  COMPE: string | null;
  ISPB: string;
  LongName: string;
  ShortName: string;
  /** DRCT (direct participant of PIX), IDRT (indirect), null (none). */
  PixType: string | null;
  DateUpdated?: string;
}

async function main() {
  const packageDir = path.dirname(require.resolve('bancos-brasileiros/package.json'));
  const { version } = JSON.parse(await fs.readFile(path.join(packageDir, 'package.json'), 'utf8'));
  // The upstream file starts with a byte-order mark.
  const text = (await fs.readFile(path.join(packageDir, 'bancos.json'), 'utf8')).replace(/^\uFEFF/, '');
  const upstream = JSON.parse(text) as UpstreamBank[];
  // A bank account names its bank by COMPE code: an institution without one cannot be a bank account's bank.
  const banks = upstream
    .filter((bank) => /^\d{3}$/.test(bank.COMPE ?? '') && /^\d{8}$/.test(bank.ISPB))
    .map((bank) => ({
      compe: bank.COMPE!,
      ispb: bank.ISPB,
      name: bank.LongName.trim(),
      short_name: bank.ShortName.trim(),
      pix_participant: bank.PixType === 'DRCT' || bank.PixType === 'IDRT',
    }))
    .sort((a, b) => a.compe.localeCompare(b.compe));
  const updated = upstream.map((bank) => bank.DateUpdated ?? '').sort();
  const dataset = {
    source: `npm bancos-brasileiros@${version} (github.com/guibranco/BancosBrasileiros, Unlicense)`,
    data_updated_at: updated[updated.length - 1]?.slice(0, 10) ?? null,
    generated_at: new Date().toISOString().slice(0, 10),
    banks,
  };
  await fs.writeFile(BANKS_FILE, `${JSON.stringify(dataset, null, 2)}\n`);
  console.log(
    `${banks.length} banks written to ${path.relative(process.cwd(), BANKS_FILE)} (${dataset.source})`,
  );
}

await main();
