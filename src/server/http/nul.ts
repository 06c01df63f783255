import type { FastifyInstance } from 'fastify';
import { validationError } from '../errors.js';

/** Deeper than any field of the API; a deeper body is refused before anything walks it recursively. */
export const MAX_JSON_DEPTH = 32;

export type ValueProblem = { kind: 'nul' | 'depth'; path: string } | null;

/**
 * The first string holding a NUL character (PostgreSQL text cannot store NUL, so such a value is refused up
 * front instead of failing the query), or the first value nested deeper than MAX_JSON_DEPTH, in document order.
 * Recursion stops at that depth, so a body nested 5,000 levels deep cannot overflow the call stack. Every
 * request passes here: a path is built only for a problem.
 */
export function findValueProblem(root: unknown): ValueProblem {
  const found = problemIn(root, 0);
  if (!found) return null;
  return { kind: found.kind, path: found.path.length > 0 ? found.path.reverse().join('.') : 'value' };
}

/** A problem below a value, with the path to it from the innermost key outwards. */
function problemIn(value: unknown, depth: number): { kind: 'nul' | 'depth'; path: string[] } | null {
  if (typeof value === 'string') return value.includes('\u0000') ? { kind: 'nul', path: [] } : null;
  if (!value || typeof value !== 'object') return null;
  if (depth >= MAX_JSON_DEPTH) return { kind: 'depth', path: [] };
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = problemIn(value[i], depth + 1);
      if (found) {
        found.path.push(String(i));
        return found;
      }
    }
    return null;
  }
  for (const key of Object.keys(value)) {
    const found = problemIn((value as Record<string, unknown>)[key], depth + 1);
    if (found) {
      found.path.push(key);
      return found;
    }
  }
  return null;
}

/** Every route: after schema validation, before any handler touches the store. */
export function refuseNulCharacters(app: FastifyInstance): void {
  // A callback, not an async hook: every request passes, and a promise would cost each of them.
  app.addHook('preHandler', (request, _reply, done) => {
    const problem =
      findValueProblem(request.body) ?? findValueProblem(request.query) ?? findValueProblem(request.params);
    if (!problem) return done();
    const { path } = problem;
    done(
      problem.kind === 'nul'
        ? validationError(`${path} contains a NUL character (\\u0000), which no field accepts.`, [
            { field: path, message: `${path} must not contain NUL characters.` },
          ])
        : validationError(`The request nests values deeper than ${MAX_JSON_DEPTH} levels.`, [
            { field: path, message: `${path} is nested deeper than ${MAX_JSON_DEPTH} levels.` },
          ]),
    );
  });
}
