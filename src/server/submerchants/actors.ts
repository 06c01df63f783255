import type { FastifyRequest } from 'fastify';
import { merchantOf } from '../http/auth.js';
import type { Actor } from './store.js';

/** The merchant calling a secret-key route, as the actor of what it changes. */
export function merchantActor(request: FastifyRequest): Actor & { kind: 'merchant' } {
  return { kind: 'merchant', id: merchantOf(request).id };
}

/** The operator calling an operator route, identified by its key's id (never the key). */
export function operatorActor(request: FastifyRequest): Actor & { kind: 'operator' } {
  const caller = request.caller;
  if (caller?.kind !== 'operator') {
    throw new Error(`route ${request.routeOptions.url} read an operator without operator auth`);
  }
  return { kind: 'operator', id: caller.operatorKeyId };
}
