import { bankAccounts } from './bank-accounts.js';
import { charges } from './charges.js';
import { common } from './common.js';
import { errors } from './errors.js';
import { home } from './home.js';
import { preferences } from './preferences.js';
import { queue } from './queue.js';
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
  reviews,
  queue,
  submerchants,
  bankAccounts,
  preferences,
  reasons,
  errors,
};

export type Messages = typeof messages;
