// The dashboard's message catalogues against each other and against what the service can say: a key in one
// language only, or a reason code, error code, status or document type of the service with no words, fails here.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { anticipations as enAnticipations } from '../../src/dashboard/src/i18n/en/anticipations.js';
import { developers as enDevelopers } from '../../src/dashboard/src/i18n/en/developers.js';
import { messages as enFrame } from '../../src/dashboard/src/i18n/en/index.js';
import { money as enMoney } from '../../src/dashboard/src/i18n/en/money.js';
import { operator as enOperator } from '../../src/dashboard/src/i18n/en/operator.js';
import { risk as enRisk } from '../../src/dashboard/src/i18n/en/risk.js';
import { team as enTeam } from '../../src/dashboard/src/i18n/en/team.js';
import { withdrawals as enWithdrawals } from '../../src/dashboard/src/i18n/en/withdrawals.js';
import { browserLocale, LOCALES, parseDay } from '../../src/dashboard/src/i18n/index.js';
import { anticipations as ptBRAnticipations } from '../../src/dashboard/src/i18n/pt-BR/anticipations.js';
import { developers as ptBRDevelopers } from '../../src/dashboard/src/i18n/pt-BR/developers.js';
import { messages as ptBRFrame } from '../../src/dashboard/src/i18n/pt-BR/index.js';
import { money as ptBRMoney } from '../../src/dashboard/src/i18n/pt-BR/money.js';
import { operator as ptBROperator } from '../../src/dashboard/src/i18n/pt-BR/operator.js';
import { risk as ptBRRisk } from '../../src/dashboard/src/i18n/pt-BR/risk.js';
import { team as ptBRTeam } from '../../src/dashboard/src/i18n/pt-BR/team.js';
import { withdrawals as ptBRWithdrawals } from '../../src/dashboard/src/i18n/pt-BR/withdrawals.js';
import { parseHundredths } from '../../src/dashboard/src/money-format.js';
import { CHARGE_STATUSES } from '../../src/server/charges/schemas.js';
import { ERRORS } from '../../src/server/error-codes.js';
import { RECEIVABLE_STATUSES } from '../../src/server/receivables/rules.js';
import { RULES } from '../../src/server/risk/rules/index.js';
import { DOCUMENT_TYPES } from '../../src/server/submerchants/document-types.js';
import { SUBMERCHANT_STATUSES } from '../../src/server/submerchants/schemas.js';

const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../src/server');
// Each language's whole catalogue: the one loaded with the language and the areas loaded with their pages.
const en = {
  ...enFrame,
  money: enMoney,
  withdrawals: enWithdrawals,
  risk: enRisk,
  team: enTeam,
  anticipations: enAnticipations,
  developers: enDevelopers,
  operator: enOperator,
};
const ptBR = {
  ...ptBRFrame,
  money: ptBRMoney,
  withdrawals: ptBRWithdrawals,
  risk: ptBRRisk,
  team: ptBRTeam,
  anticipations: ptBRAnticipations,
  developers: ptBRDevelopers,
  operator: ptBROperator,
};
const CATALOGUES = { en, 'pt-BR': ptBR } as const;

/** Every leaf of a catalogue as `area.key.sub` → its kind (a sentence or a function of parameters). */
function leaves(node: object, prefix = ''): Map<string, string> {
  const found = new Map<string, string>();
  for (const [key, value] of Object.entries(node)) {
    const name = prefix ? `${prefix}.${key}` : key;
    if (value !== null && typeof value === 'object') {
      for (const [leaf, kind] of leaves(value, name)) found.set(leaf, kind);
    } else found.set(name, typeof value === 'function' ? `function/${value.length}` : typeof value);
  }
  return found;
}

describe('the dashboard catalogues', () => {
  test('every language has exactly the keys of English, each a sentence where English has one', () => {
    const english = leaves(en);
    expect(english.size).toBeGreaterThan(300);
    for (const [language, catalogue] of Object.entries(CATALOGUES)) {
      const other = leaves(catalogue);
      const missing = [...english.keys()].filter((key) => !other.has(key));
      const extra = [...other.keys()].filter((key) => !english.has(key));
      const otherKind = [...english].filter(([key, kind]) => other.has(key) && other.get(key) !== kind);
      expect({ language, missing, extra, otherKind }).toEqual({
        language,
        missing: [],
        extra: [],
        otherKind: [],
      });
      for (const [key, kind] of other) {
        if (kind === 'string')
          expect(`${language} ${key}: ${(leafValue(catalogue, key) as string).trim()}`).not.toMatch(/: $/);
      }
    }
    expect(Object.keys(CATALOGUES).sort()).toEqual([...LOCALES].sort());
  });

  test('every risk rule of the service has a description in every language', () => {
    const codes = RULES.map((rule) => rule.code);
    expect(codes.length).toBeGreaterThan(30);
    for (const catalogue of Object.values(CATALOGUES)) {
      expect(codes.filter((code) => !(code in catalogue.reasons))).toEqual([]);
      expect(Object.keys(catalogue.reasons).filter((code) => !codes.includes(code as never))).toEqual([]);
    }
  });

  test('every error code the service answers with has a sentence in every language', () => {
    const codes = [...ERRORS.keys()];
    expect(codes.length).toBeGreaterThan(30);
    for (const catalogue of Object.values(CATALOGUES)) {
      expect(codes.filter((code) => !(code in catalogue.errors))).toEqual([]);
    }
  });

  test('every status, document type and requirement the service names has words in every language', () => {
    const statuses = [
      ...CHARGE_STATUSES,
      ...SUBMERCHANT_STATUSES,
      ...RECEIVABLE_STATUSES,
      'approved',
      'review',
      'declined',
      'not_analyzed',
    ];
    const requirements = readFileSync(path.join(serverDir, 'submerchants/requirements.ts'), 'utf8');
    const requirementCodes = [...requirements.matchAll(/code: '([A-Z_]+)'/g)].map((match) => match[1]!);
    expect(requirementCodes.length).toBeGreaterThan(5);
    for (const catalogue of Object.values(CATALOGUES)) {
      expect(statuses.filter((status) => !(status in catalogue.common.statuses))).toEqual([]);
      expect(DOCUMENT_TYPES.filter((type) => !(type in catalogue.submerchants.documentTypes))).toEqual([]);
      expect(requirementCodes.filter((code) => !(code in catalogue.submerchants.requirementCodes))).toEqual(
        [],
      );
    }
  });

  test("until the user chooses, the browser's first language the dashboard speaks decides, else pt-BR", () => {
    expect(browserLocale(['en-US', 'pt-BR'])).toBe('en');
    expect(browserLocale(['pt-PT', 'en'])).toBe('pt-BR');
    expect(browserLocale(['de-DE', 'fr'])).toBe('pt-BR');
    expect(browserLocale([])).toBe('pt-BR');
  });

  test('a typed day is read day first, and a day that does not exist is refused', () => {
    expect(parseDay('29/10/2026')).toBe('2026-10-29');
    expect(parseDay('5/1/2026')).toBe('2026-01-05');
    expect(parseDay('31/02/2026')).toBeNull();
    expect(parseDay('10/29/2026')).toBeNull();
    expect(parseDay('2026-10-29')).toBeNull();
  });

  test('a rate or an amount is typed with either decimal separator, at most two decimals', () => {
    expect(parseHundredths('2,99')).toBe(299);
    expect(parseHundredths('2.99')).toBe(299);
    expect(parseHundredths('3,5')).toBe(350);
    expect(parseHundredths(' 10 ')).toBe(1000);
    expect(parseHundredths('0')).toBe(0);
    expect(parseHundredths('2,999')).toBeNull();
    expect(parseHundredths('1.234,56')).toBeNull();
    expect(parseHundredths('-1')).toBeNull();
    expect(parseHundredths('')).toBeNull();
  });
});

function leafValue(node: object, key: string): unknown {
  return key.split('.').reduce<unknown>((value, part) => (value as Record<string, unknown>)[part], node);
}
