import type { Messages } from '../en/index.js';
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

/** The Portuguese (Brazil) catalogue: the dashboard's default language. */
export const messages: Messages = {
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
