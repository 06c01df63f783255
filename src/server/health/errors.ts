import type { ErrorCatalogue } from '../errors.js';

export const HEALTH_ERRORS = {
  DATABASE_UNAVAILABLE: {
    status: 503,
    meaning: 'Readiness (GET /ready): the instance cannot reach its database.',
    action: 'Route traffic to another instance; check the database and the instance’s DATABASE_URL.',
  },
} as const satisfies ErrorCatalogue;
