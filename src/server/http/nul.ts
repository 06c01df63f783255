import type { FastifyInstance } from 'fastify';
import { validationError } from '../errors.js';

/** Deeper than any field of the API; a deeper body is refused before anything walks it recursively. */
export const MAX_JSON_DEPTH = 32;

export type ValueProblem = { kind: 'nul' | 'depth'; path: string } | null;

/**
 * The first string holding a NUL character (PostgreSQL text cannot store NUL, so such a value is refused up
 * front instead of failing the query), or the first value nested deeper than MAX_JSON_DEPTH. Walks with an
 * explicit stack: a body nested 5,000 levels deep must not overflow the call stack.
 */
export function findValueProblem(root: unknown): ValueProblem {
  const stack: { value: unknown; path: string; depth: number }[] = [{ value: root, path: '', depth: 0 }];
  while (stack.length > 0) {
    const { value, path, depth } = stack.pop() as (typeof stack)[number];
    if (typeof value === 'string') {
      if (value.includes('\u0000')) return { kind: 'nul', path: path || 'value' };
      continue;
    }
    if (!value || typeof value !== 'object') continue;
    if (depth >= MAX_JSON_DEPTH) return { kind: 'depth', path: path || 'value' };
    const entries = Array.isArray(value) ? [...value.entries()] : Object.entries(value);
    // Pushed in reverse, so that the first offending field in document order is the one reported.
    for (let i = entries.length - 1; i >= 0; i--) {
      const [key, item] = entries[i] as [string | number, unknown];
      stack.push({ value: item, path: path ? `${path}.${key}` : String(key), depth: depth + 1 });
    }
  }
  return null;
}

/** Every route: after schema validation, before any handler touches the store. */
export function refuseNulCharacters(app: FastifyInstance): void {
  app.addHook('preHandler', async (request) => {
    for (const value of [request.body, request.query, request.params]) {
      const problem = findValueProblem(value);
      if (problem?.kind === 'nul') {
        const { path } = problem;
        throw validationError(`${path} contains a NUL character (\\u0000), which no field accepts.`, [
          { field: path, message: `${path} must not contain NUL characters.` },
        ]);
      }
      if (problem?.kind === 'depth') {
        const { path } = problem;
        throw validationError(`The request nests values deeper than ${MAX_JSON_DEPTH} levels.`, [
          { field: path, message: `${path} is nested deeper than ${MAX_JSON_DEPTH} levels.` },
        ]);
      }
    }
  });
}
