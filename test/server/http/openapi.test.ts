import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { VigiaApp } from '../../../src/server/app.js';
import { ERRORS } from '../../../src/server/error-codes.js';
import { freshDatabaseUrl, startApp } from '../../helpers/app.js';

/** The OpenAPI document names, for each route and error status, the codes it may answer (error-codes.ts). */

interface ErrorResponse {
  content?: {
    'application/json'?: {
      schema?: { properties?: { error?: { properties?: { code?: { enum?: string[] } } } } };
    };
  };
}
type Paths = Record<string, Record<string, { responses?: Record<string, ErrorResponse> }>>;

const codesOf = (response: ErrorResponse | undefined) =>
  response?.content?.['application/json']?.schema?.properties?.error?.properties?.code?.enum;

describe('OpenAPI error codes', () => {
  let app: VigiaApp;
  let document: { paths: Paths; components: { schemas: Record<string, { enum?: string[] }> } };

  beforeAll(async () => {
    app = await startApp(await freshDatabaseUrl('sqlite'));
    document = (await app.inject({ method: 'GET', url: '/openapi.json' })).json();
  });
  afterAll(() => app.close());

  test('every documented error status of every route lists its codes, each a catalogue code of that status', () => {
    const problems: string[] = [];
    let checked = 0;
    for (const [url, item] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(item)) {
        for (const [status, response] of Object.entries(operation.responses ?? {})) {
          if (Number(status) < 400) continue;
          const codes = codesOf(response);
          const route = `${method.toUpperCase()} ${url} ${status}`;
          if (!codes?.length) problems.push(`${route}: no codes`);
          for (const code of codes ?? []) {
            checked += 1;
            if (ERRORS.get(code)?.status !== Number(status)) problems.push(`${route}: ${code}`);
          }
        }
      }
    }
    expect(checked).toBeGreaterThan(200);
    expect(problems).toEqual([]);
  });

  test("a route lists its own codes: a charge's token, session and submerchant refusals, a signals report's", () => {
    const charges = document.paths['/v1/charges']!.post!.responses!;
    expect(codesOf(charges['422'])).toEqual(
      expect.arrayContaining([
        'IDEMPOTENCY_KEY_REUSED',
        'PAYMENT_METHOD_NOT_SUPPORTED',
        'FRAUD_SESSION_REQUIRED',
        'SUBMERCHANT_NOT_ACTIVE',
        'TOKEN_EXPIRED',
        'FRAUD_SESSION_ALREADY_USED',
      ]),
    );
    expect(codesOf(charges['409'])).toEqual(['IDEMPOTENCY_KEY_IN_USE']);
    expect(codesOf(charges['401'])).toEqual(['UNAUTHORIZED']);
    const signals = document.paths['/v1/fraud/sessions/{id}/signals']!.post!.responses!;
    expect(codesOf(signals['422'])).not.toContain('TOKEN_EXPIRED');
    expect(codesOf(signals['422'])).toContain('FRAUD_SIGNALS_TOKEN_INVALID');
    expect(codesOf(document.paths['/ready']!.get!.responses!['503'])).toEqual(['DATABASE_UNAVAILABLE']);
  });

  test('the ErrorCode schema lists every catalogue code (the Node client types its errors with it)', () => {
    expect(document.components.schemas.ErrorCode!.enum).toEqual([...ERRORS.keys()]);
  });
});
