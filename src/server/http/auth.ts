import type { FastifyRequest } from 'fastify';
import { hashesEqual, hashKey, isTestKey, type KeyKind, keyKind } from '../core/keys.js';
import { apiError, GENERAL_ERRORS } from '../errors.js';
import type { CredentialCache } from './credential-cache.js';
import type { RateLimitCategory } from './rate-limit.js';

/**
 * Who may call a route: `secret` (a merchant's server), `browser` (the SDK's routes: public or secret key),
 * `operator` (platform staff, /v1/operator only) or `none`.
 */
export type RouteAuth = 'none' | 'secret' | 'browser' | 'operator';

/**
 * What this layer reads of a merchant caller. merchants/caller.ts widens it to the whole merchant by declaration
 * merging (as `declare module 'fastify'` below widens Fastify's types), so routes get the merchant the key
 * lookup loaded while http/ imports no resource.
 */
export interface CallerMerchant {
  id: string;
  allowedHosts: string[];
  rateLimits: Partial<Record<RateLimitCategory, number>>;
}

interface MerchantCaller {
  kind: 'secret' | 'public';
  merchant: CallerMerchant;
  /** Set when the key was replaced by a roll: it works until then (its grace period). */
  replacedKeyExpiresAt?: Date;
  /** The SHA-256 hash of the key the request was sent with; absent for a dashboard session (no key). */
  keyHash?: string;
  /**
   * Test mode (`sk_test_`/`pk_test_` keys, or a dashboard user of a merchant whose keys are test keys): decided
   * once, when the caller is authenticated. Handlers read it here and never from a header, which under
   * /dashboard/api nobody verified.
   */
  testMode: boolean;
}

export type Caller = MerchantCaller | { kind: 'operator'; operatorKeyId: string };

/** A caller as the key store finds it: whether it is in test mode is the key's, read by `resolveCredentials`. */
export type StoredCaller = Omit<MerchantCaller, 'testMode'> | { kind: 'operator'; operatorKeyId: string };

/** Whether the request's caller is a merchant in test mode (test outcomes, test-only routes). */
export function callerInTestMode(request: FastifyRequest): boolean {
  const caller = request.caller;
  return caller !== null && caller.kind !== 'operator' && caller.testMode;
}

export type Credentials =
  | { status: 'missing' | 'malformed' | 'unknown' }
  | { status: 'valid'; caller: Caller };

declare module 'fastify' {
  interface FastifyContextConfig {
    auth?: RouteAuth;
    /**
     * The route's rate-limit bucket: `transactions` (charges, withdrawals, anticipations), `queries` (wallets,
     * receivables, banks, submerchants), `default`, or `none` (unmetered). Required on every /v1 route, like auth.
     */
    rateLimit?: RateLimitCategory | 'none';
  }
  interface FastifyRequest {
    caller: Caller | null;
  }
}

/** Reads `Basic base64(key + ":")`; null when the header is not in that form. */
export function parseBasicKey(header: string): string | null {
  const match = /^Basic ([A-Za-z0-9+/]+={0,2})$/i.exec(header.trim());
  if (!match?.[1]) return null;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon <= 0) return null;
  return decoded.slice(0, colon);
}

/**
 * Finds who holds a key from its kind and SHA-256 hash, returning the stored hash beside the caller so that the
 * comparison is made here, in constant time, and when the key stops working (a rolled key's grace period, null
 * for none). app.ts wires it to the merchant and operator stores, so that this layer imports no resource.
 */
export type KeyLookup = (
  kind: KeyKind,
  keyHash: string,
) => Promise<{ caller: StoredCaller; keyHash: string; expiresAt: Date | null } | null>;

/** The Authorization value of a key as clients send it: `Basic base64(key + ":")`. */
function basicAuthorization(key: string): string {
  return `Basic ${Buffer.from(`${key}:`).toString('base64')}`;
}

/**
 * Who holds the key of an Authorization header. A key verified lately comes from the cache at once, found by
 * the header itself (no decoding, no hashing, no promise: every authenticated request passes here); another is
 * looked up by its hash, and the answer is a promise.
 */
export function resolveCredentials(
  lookUp: KeyLookup,
  cache: CredentialCache,
  header: string | undefined,
): Credentials | Promise<Credentials> {
  if (!header) return { status: 'missing' };
  const known = cache.get(header);
  if (known) return { status: 'valid', caller: known };
  const key = parseBasicKey(header);
  if (key === null) return { status: 'malformed' };
  const kind: KeyKind | null = keyKind(key);
  if (kind === null) return { status: 'unknown' };
  // The cache holds each key once, under its canonical header: the same key written otherwise (`basic`, spaces,
  // a password after the colon) finds that entry, and cannot crowd the cache with variants.
  const canonical = basicAuthorization(key);
  if (canonical !== header) {
    const cached = cache.get(canonical);
    if (cached) return { status: 'valid', caller: cached };
  }
  const keyHash = hashKey(key);
  const generation = cache.generation;
  return lookUp(kind, keyHash).then((found): Credentials => {
    if (!found || !hashesEqual(found.keyHash, keyHash)) return { status: 'unknown' };
    const caller: Caller =
      found.caller.kind === 'operator' ? found.caller : { ...found.caller, testMode: isTestKey(key) };
    cache.set(canonical, caller, found.expiresAt, generation);
    return { status: 'valid', caller };
  });
}

const AUTH_HINT = 'Send Authorization: Basic base64(key + ":").';

const UNAUTHORIZED: Record<'missing' | 'malformed' | 'unknown', string> = {
  missing: `Authentication is required. ${AUTH_HINT}`,
  malformed: `The Authorization header is malformed. ${AUTH_HINT}`,
  unknown: 'The API key is not valid: check that you copied the whole key and that it was not revoked.',
};

const ALLOWED: Record<Exclude<RouteAuth, 'none'>, readonly Caller['kind'][]> = {
  secret: ['secret'],
  browser: ['secret', 'public'],
  operator: ['operator'],
};

const FORBIDDEN: Record<Exclude<RouteAuth, 'none'>, string> = {
  secret: 'This route needs your secret key; public keys only work on the browser SDK routes.',
  browser: 'This route needs a merchant key (public or secret); operator keys only work under /v1/operator.',
  operator: 'This route needs an operator key.',
};

export function enforceAuth(required: RouteAuth | undefined, credentials: Credentials): void {
  if (!required || required === 'none') return;
  if (credentials.status !== 'valid') {
    throw apiError(GENERAL_ERRORS, 'UNAUTHORIZED', UNAUTHORIZED[credentials.status], undefined, {
      'WWW-Authenticate': 'Basic realm="vigia"',
    });
  }
  if (!ALLOWED[required].includes(credentials.caller.kind)) {
    throw apiError(GENERAL_ERRORS, 'FORBIDDEN', FORBIDDEN[required]);
  }
}

/** The authenticated merchant of a merchant route (secret or browser). */
export function merchantOf(request: FastifyRequest): CallerMerchant {
  const caller = request.caller;
  if (!caller || caller.kind === 'operator') {
    throw new Error(`route ${request.routeOptions.url} read a merchant without merchant auth`);
  }
  return caller.merchant;
}
