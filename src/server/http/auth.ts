import type { FastifyInstance, FastifyRequest } from 'fastify';
import { hashesEqual, hashKey, type KeyKind, keyKind } from '../core/keys.js';
import { ApiError } from '../errors.js';
import { findMerchantByKeyHash, type Merchant } from '../merchants/service.js';
import { findOperatorKey } from '../operators/keys.js';

/**
 * Who may call a route: `secret` (a merchant's server), `browser` (the SDK's routes: public or secret key),
 * `operator` (platform staff, /v1/operator only) or `none`.
 */
export type RouteAuth = 'none' | 'secret' | 'browser' | 'operator';

export type Caller =
  | { kind: 'secret' | 'public'; merchant: Merchant }
  | { kind: 'operator'; operatorKeyId: string };

export type Credentials =
  | { status: 'missing' | 'malformed' | 'unknown' }
  | { status: 'valid'; caller: Caller };

declare module 'fastify' {
  interface FastifyContextConfig {
    auth?: RouteAuth;
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

export async function resolveCredentials(
  app: FastifyInstance,
  header: string | undefined,
): Promise<Credentials> {
  if (!header) return { status: 'missing' };
  const key = parseBasicKey(header);
  if (key === null) return { status: 'malformed' };
  const kind: KeyKind | null = keyKind(key);
  if (kind === null) return { status: 'unknown' };
  const keyHash = hashKey(key);
  const cached = app.credentials.get(keyHash);
  if (cached) return { status: 'valid', caller: cached };
  const caller = await lookUpCaller(app, kind, keyHash);
  if (!caller) return { status: 'unknown' };
  app.credentials.set(keyHash, caller);
  return { status: 'valid', caller };
}

async function lookUpCaller(app: FastifyInstance, kind: KeyKind, keyHash: string): Promise<Caller | null> {
  if (kind === 'operator') {
    const operator = await findOperatorKey(app.store.db, keyHash);
    return operator && hashesEqual(operator.keyHash, keyHash)
      ? { kind: 'operator', operatorKeyId: operator.id }
      : null;
  }
  const merchant = await findMerchantByKeyHash(app.store.db, kind, keyHash);
  if (!merchant || !hashesEqual(merchant.keyHash, keyHash)) return null;
  const { keyHash: _stored, ...rest } = merchant;
  return { kind, merchant: rest };
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
    throw new ApiError(401, 'UNAUTHORIZED', UNAUTHORIZED[credentials.status], undefined, {
      'WWW-Authenticate': 'Basic realm="vigia"',
    });
  }
  if (!ALLOWED[required].includes(credentials.caller.kind)) {
    throw new ApiError(403, 'FORBIDDEN', FORBIDDEN[required]);
  }
}

/** The authenticated merchant of a merchant route (secret or browser). */
export function merchantOf(request: FastifyRequest): Merchant {
  const caller = request.caller;
  if (!caller || caller.kind === 'operator') {
    throw new Error(`route ${request.routeOptions.url} read a merchant without merchant auth`);
  }
  return caller.merchant;
}
