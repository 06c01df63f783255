import type { FastifyInstance } from 'fastify';
import { validationError } from '../errors.js';

/**
 * The path of the first string holding a NUL character, or null. PostgreSQL text cannot store NUL, so such a
 * value is refused up front instead of failing the query.
 */
export function nulCharacterPath(value: unknown, path = ''): string | null {
  if (typeof value === 'string') return value.includes('\u0000') ? path || 'value' : null;
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) {
      const found = nulCharacterPath(item, path ? `${path}.${index}` : String(index));
      if (found) return found;
    }
    return null;
  }
  if (value && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      const found = nulCharacterPath(item, path ? `${path}.${key}` : key);
      if (found) return found;
    }
  }
  return null;
}

/** Every route: after schema validation, before any handler touches the store. */
export function refuseNulCharacters(app: FastifyInstance): void {
  app.addHook('preHandler', async (request) => {
    for (const value of [request.body, request.query, request.params]) {
      const path = nulCharacterPath(value);
      if (path) {
        throw validationError(`${path} contains a NUL character (\\u0000), which no field accepts.`, [
          { field: path, message: `${path} must not contain NUL characters.` },
        ]);
      }
    }
  });
}
