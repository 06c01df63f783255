import type { MoneyMessages } from '../en/money.js';
import { pricing } from './pricing.js';
import { balances, receivables, wallets } from './receivables.js';

export const money: MoneyMessages = { balances, receivables, wallets, pricing };
