import { describe, expect, test } from 'vitest';
import { freshDatabaseUrl, startApp } from '../../helpers/app.js';

describe('OpenAPI', () => {
  test('documents the charge, token and risk routes, with Idempotency-Key on the creations', async () => {
    const app = await startApp(await freshDatabaseUrl('sqlite'));
    const document = (await app.inject({ method: 'GET', url: '/openapi.json' })).json();
    const headerNames = (operation: { parameters?: { in: string; name: string }[] }) =>
      (operation.parameters ?? [])
        .filter((parameter) => parameter.in === 'header')
        .map((parameter) => parameter.name);
    expect(headerNames(document.paths['/v1/charges'].post)).toContain('idempotency-key');
    expect(headerNames(document.paths['/v1/tokens'].post)).toContain('idempotency-key');
    expect(headerNames(document.paths['/v1/charges/{id}/refund'].post)).toContain('idempotency-key');
    expect(document.paths['/v1/charges'].get).toBeDefined();
    expect(document.paths['/v1/charges/{id}'].get).toBeDefined();
    expect(document.paths['/v1/risk/settings'].patch).toBeDefined();
  });
});
