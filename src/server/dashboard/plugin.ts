import type { FastifyPluginAsync } from 'fastify';
import { dashboardApi } from './api.js';
import { dashboardPages } from './pages.js';

/** The dashboard at /dashboard: its pages and, under /dashboard/api, what they call with the session cookie. */
export const dashboard: FastifyPluginAsync = async (app) => {
  await app.register(dashboardApi, { prefix: '/dashboard/api' });
  await app.register(dashboardPages, { prefix: '/dashboard' });
};
