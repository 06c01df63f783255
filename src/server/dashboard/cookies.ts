import type { FastifyReply, FastifyRequest } from 'fastify';
import { SESSION_MAX_MS } from './sessions.js';

export const SESSION_COOKIE = 'vigia_dashboard';
const COOKIE_PATH = '/dashboard';

/** The session cookie's value, if the request carries one. */
export function sessionCookie(request: FastifyRequest): string | null {
  for (const part of (request.headers.cookie ?? '').split(';')) {
    const [name, ...value] = part.trim().split('=');
    if (name === SESSION_COOKIE) return value.join('=') || null;
  }
  return null;
}

// Secure everywhere but development, which runs on plain http://127.0.0.1.
function attributes(request: FastifyRequest, maxAgeSeconds: number): string {
  const secure = request.server.config.env === 'development' ? '' : '; Secure';
  return `Path=${COOKIE_PATH}; Max-Age=${maxAgeSeconds}; HttpOnly; SameSite=Strict${secure}`;
}

export function setSessionCookie(request: FastifyRequest, reply: FastifyReply, token: string): void {
  reply.header('Set-Cookie', `${SESSION_COOKIE}=${token}; ${attributes(request, SESSION_MAX_MS / 1000)}`);
}

export function clearSessionCookie(request: FastifyRequest, reply: FastifyReply): void {
  reply.header('Set-Cookie', `${SESSION_COOKIE}=; ${attributes(request, 0)}`);
}
