import type { Area, Messages } from '../en/index.js';
import { charges } from './charges.js';
import { common } from './common.js';
import { errors } from './errors.js';
import { home } from './home.js';
import { operator } from './operator.js';
import { preferences } from './preferences.js';
import { reasons } from './reasons.js';
import { reviews } from './reviews.js';
import { signIn } from './sign-in.js';
import { submerchants } from './submerchants.js';
import { webhooks } from './webhooks.js';

/** The Portuguese (Brazil) catalogue: the dashboard's default language. */
export const messages: Omit<Messages, Area> = {
  common,
  signIn,
  home,
  charges,
  webhooks,
  operator,
  reviews,
  submerchants,
  preferences,
  reasons,
  errors,
};

/** The areas loaded with their page (en/index.ts). */
export const areas: { [A in Area]: () => Promise<Messages[A]> } = {
  bankAccounts: () => import('./bank-accounts.js').then((module) => module.bankAccounts),
  developers: () => import('./developers.js').then((module) => module.developers),
  risk: () => import('./risk.js').then((module) => module.risk),
  team: () => import('./team.js').then((module) => module.team),
};
