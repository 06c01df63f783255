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

/**
 * The English catalogue, one file per page area. Its shape is the type every other language must match
 * (`Messages`): a key missing or extra in another language is a compile error (docs/dashboard.md: adding a string).
 */
export const messages = {
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

/**
 * The areas whose words load with their page, not with the language, so that the first load keeps to its budget
 * (docs/decisions/dashboard-words-by-page-area.md). `loadAreas` (i18n/index.ts) loads them; the page's loader in
 * main.tsx names them.
 */
export const areas = {
  bankAccounts: () => import('./bank-accounts.js').then((module) => module.bankAccounts),
  developers: () => import('./developers.js').then((module) => module.developers),
  risk: () => import('./risk.js').then((module) => module.risk),
  team: () => import('./team.js').then((module) => module.team),
};

export type Area = keyof typeof areas;
/** Every word of a language: the language's own chunk and its areas'. */
export type Messages = typeof messages & { [A in Area]: Awaited<ReturnType<(typeof areas)[A]>> };
