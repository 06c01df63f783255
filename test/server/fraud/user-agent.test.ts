import { beforeAll, describe, expect, test } from 'vitest';
import type { VigiaApp } from '../../../src/server/app.js';
import { browserTypeOf, readUserAgent } from '../../../src/server/fraud/user-agent.js';
import { DIALECTS, startAppWithMerchant, type TestMerchant } from '../../helpers/app.js';
import { USER_AGENT_VECTORS as vectors } from '../../vectors/user-agents.js';
import { createBusyMerchant, createSession, readSession, sessionBody } from './fixtures.js';

// One set of vectors (shared and the project's own) for the SDK's classifier and the service's mapping.

describe('ua-parser-js reading, mapped to the six types', () => {
  test('the vector file covers every type', () => {
    expect(new Set(vectors.map((vector) => vector.type))).toEqual(
      new Set(['Chrome', 'Firefox', 'Safari', 'Edge', 'Opera', 'Other']),
    );
  });

  test.each(vectors.map((vector) => [vector.name, vector.user_agent, vector.type]))(
    '%s → %s',
    (_name, userAgent, type) => {
      expect(readUserAgent(userAgent).type).toBe(type);
    },
  );

  test("ua-parser-js's variant names map to their family", () => {
    expect(browserTypeOf('Mobile Safari')).toBe('Safari');
    expect(browserTypeOf('Chrome WebView')).toBe('Chrome');
    expect(browserTypeOf('Chrome Headless')).toBe('Chrome');
    expect(browserTypeOf('Opera Mini')).toBe('Opera');
    expect(browserTypeOf('Firefox Focus')).toBe('Firefox');
    expect(browserTypeOf('Samsung Internet')).toBe('Other');
    expect(browserTypeOf('Chrome-ish')).toBe('Other');
    expect(browserTypeOf(undefined)).toBe('Other');
  });
});

describe.each(DIALECTS)('%s', (dialect) => {
  let app: VigiaApp;
  let merchant: TestMerchant;

  beforeAll(async () => {
    ({ app, merchant } = await startAppWithMerchant(dialect, {}, createBusyMerchant));
  });

  test('a session stores the reading of the declared user agent and of the header for every vector', async () => {
    for (const vector of vectors) {
      const { sessionId } = await createSession(app, merchant, {
        body: sessionBody({ user_agent: vector.user_agent, type: vector.type }),
        headers: { 'user-agent': vector.user_agent },
      });
      const observed = (await readSession(app, merchant, sessionId)).json().data.observed;
      expect(observed.declared_user_agent_type, vector.name).toBe(vector.type);
      expect(observed.user_agent_type, vector.name).toBe(vector.type);
    }
  });
});
