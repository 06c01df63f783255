import type { Merchant } from './service.js';

// A merchant caller carries the whole merchant its key belongs to (callers.ts and the dashboard's session auth
// load it), so `merchantOf(request)` gives routes every setting without another query.
declare module '../http/auth.js' {
  interface CallerMerchant extends Merchant {}
}
