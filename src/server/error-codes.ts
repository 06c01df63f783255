/**
 * The registry of error catalogues: every code the API answers with is in exactly one meaning here. `ErrorCode`
 * (the type of `ApiError.code`) is derived from it, docs/errors.md is generated from it (`npm run docs:errors`),
 * and the OpenAPI document names its codes (docs/decisions/error-catalogues.md). A new `<resource>/errors.ts`
 * gets one line below; test/server/error-codes.test.ts fails on a catalogue file missing from the list.
 */
import { ANTICIPATIONS_ERRORS } from './anticipations/errors.js';
import { BANK_ACCOUNTS_ERRORS } from './bank-accounts/errors.js';
import { CHARGES_ERRORS } from './charges/errors.js';
import { DASHBOARD_ERRORS } from './dashboard/errors.js';
import { DISPUTES_ERRORS } from './disputes/errors.js';
import { type ErrorCatalogue, type ErrorEntry, GENERAL_ERRORS } from './errors.js';
import { FRAUD_ERRORS } from './fraud/errors.js';
import { HEALTH_ERRORS } from './health/errors.js';
import { LEDGER_ERRORS } from './ledger/errors.js';
import { MERCHANTS_ERRORS } from './merchants/errors.js';
import { SPLIT_ERRORS } from './split/errors.js';
import { SUBMERCHANTS_ERRORS } from './submerchants/errors.js';
import { TOKENS_ERRORS } from './tokens/errors.js';
import { WEBHOOKS_ERRORS } from './webhooks/errors.js';
import { WITHDRAWALS_ERRORS } from './withdrawals/errors.js';

/** Every catalogue, under the name docs/errors.md groups its codes by (the folder it lives in). */
export const ERROR_CATALOGUES = {
  general: GENERAL_ERRORS,
  anticipations: ANTICIPATIONS_ERRORS,
  'bank-accounts': BANK_ACCOUNTS_ERRORS,
  charges: CHARGES_ERRORS,
  dashboard: DASHBOARD_ERRORS,
  disputes: DISPUTES_ERRORS,
  fraud: FRAUD_ERRORS,
  health: HEALTH_ERRORS,
  merchants: MERCHANTS_ERRORS,
  ledger: LEDGER_ERRORS,
  split: SPLIT_ERRORS,
  submerchants: SUBMERCHANTS_ERRORS,
  tokens: TOKENS_ERRORS,
  webhooks: WEBHOOKS_ERRORS,
  withdrawals: WITHDRAWALS_ERRORS,
} as const satisfies Record<string, ErrorCatalogue>;

type Catalogues = typeof ERROR_CATALOGUES;

/** Every code the API answers with. */
export type ErrorCode = { [Name in keyof Catalogues]: keyof Catalogues[Name] & string }[keyof Catalogues];

/** The status a catalogue gives a code. */
export type StatusOf<Code extends ErrorCode> = {
  [Name in keyof Catalogues]: Code extends keyof Catalogues[Name]
    ? Catalogues[Name][Code] extends { status: infer Status }
      ? Status
      : never
    : never;
}[keyof Catalogues];

/** The codes answered with `status` (`businessRule` takes the 422 ones). */
export type CodeWithStatus<Status extends number> = {
  [Code in ErrorCode]: StatusOf<Code> extends Status ? Code : never;
}[ErrorCode];

/** A code as the registry knows it: its entry and the catalogue it comes from. */
export interface RegisteredError extends ErrorEntry {
  readonly code: string;
  readonly catalogue: string;
}

/**
 * One entry per code, in catalogue order. A code may appear in two catalogues only with the same status, meaning
 * and action; otherwise this throws (at start-up, and in the registry's test).
 */
export function registerCatalogues(catalogues: Record<string, ErrorCatalogue>): Map<string, RegisteredError> {
  const registry = new Map<string, RegisteredError>();
  for (const [catalogue, entries] of Object.entries(catalogues)) {
    for (const [code, entry] of Object.entries(entries)) {
      const known = registry.get(code);
      if (
        known &&
        (known.status !== entry.status || known.meaning !== entry.meaning || known.action !== entry.action)
      ) {
        throw new Error(
          `error code ${code} is defined differently in the ${known.catalogue} and ${catalogue} catalogues`,
        );
      }
      if (!known) registry.set(code, { code, catalogue, ...entry });
    }
  }
  return registry;
}

export const ERRORS: ReadonlyMap<string, RegisteredError> = registerCatalogues(ERROR_CATALOGUES);
