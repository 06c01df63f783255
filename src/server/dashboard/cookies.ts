import type { FastifyReply, FastifyRequest } from 'fastify';
import { apiError } from '../errors.js';
import { DASHBOARD_ERRORS } from './errors.js';
import { SESSION_MAX_MS } from './sessions.js';

/**
 * `__Host-`: a browser takes the cookie only from this very host, Secure, with `Path=/` and no Domain, so a
 * sibling subdomain cannot plant one. Development runs on plain http://127.0.0.1, where a Secure cookie (and so
 * the prefix) is not kept by every browser: there the name goes without it.
 */
export const SESSION_COOKIE = '__Host-vigia_dashboard';
export const DEVELOPMENT_SESSION_COOKIE = 'vigia_dashboard';

const cookieName = (request: FastifyRequest) =>
  request.server.config.env === 'development' ? DEVELOPMENT_SESSION_COOKIE : SESSION_COOKIE;

/**
 * The session cookie's value, if the request carries one. Two of that name are refused, not resolved: the first
 * one would win, and a cookie planted for a parent domain (without the prefix) could come first.
 */
export function sessionCookie(request: FastifyRequest, reply: FastifyReply): string | null {
  const name = cookieName(request);
  const values: string[] = [];
  for (const part of (request.headers.cookie ?? '').split(';')) {
    const [key, ...value] = part.trim().split('=');
    if (key === name) values.push(value.join('='));
  }
  if (values.length > 1) {
    clearSessionCookie(request, reply);
    throw apiError(
      DASHBOARD_ERRORS,
      'SESSION_COOKIE_AMBIGUOUS',
      'This request carries two dashboard session cookies: sign in again (clear this site’s cookies if it persists).',
    );
  }
  return values[0] || null;
}

// Secure everywhere but development, which runs on plain http://127.0.0.1.
function attributes(request: FastifyRequest, maxAgeSeconds: number): string {
  const secure = request.server.config.env === 'development' ? '' : '; Secure';
  return `Path=/; Max-Age=${maxAgeSeconds}; HttpOnly; SameSite=Strict${secure}`;
}

export function setSessionCookie(request: FastifyRequest, reply: FastifyReply, token: string): void {
  reply.header(
    'Set-Cookie',
    `${cookieName(request)}=${token}; ${attributes(request, SESSION_MAX_MS / 1000)}`,
  );
}

export function clearSessionCookie(request: FastifyRequest, reply: FastifyReply): void {
  reply.header('Set-Cookie', `${cookieName(request)}=; ${attributes(request, 0)}`);
}
