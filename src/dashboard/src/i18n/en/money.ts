import { pricing } from './pricing.js';
import { balances, receivables, wallets } from './receivables.js';

/**
 * The money pages' words (Home's balances, receivables, wallets, the operator's pricing): an area catalogue, loaded with those pages
 * rather than with the language (i18n/index.ts `loadArea`), so that the first load stays within its budget.
 */
export const money = { balances, receivables, wallets, pricing };

export type MoneyMessages = typeof money;
