import { describe, expect, test } from 'vitest';
import { verifySignature } from '../../../src/server/index.js';
import { signPayload } from '../../../src/server/webhooks/signature.js';

// Computed independently (Python's hmac / openssl dgst -hmac), so the scheme is what the guide tells other languages.
const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const BODY = '{"id":"evt_1","type":"charge.captured"}';
const HEADER = 'sha256=140975e85245826d858bc9a2c868144676bf6c47f336ba063f6364b0d636aa50';

describe('verifySignature', () => {
  test('accepts the signature of the exact body, as string or Buffer', () => {
    expect(signPayload(BODY, SECRET)).toBe(HEADER);
    expect(verifySignature(BODY, HEADER, SECRET)).toBe(true);
    expect(verifySignature(Buffer.from(BODY), HEADER, SECRET)).toBe(true);
    expect(verifySignature(BODY, ` ${HEADER} `, SECRET)).toBe(true);
    expect(verifySignature(BODY, HEADER.toUpperCase().replace('SHA256=', 'sha256='), SECRET)).toBe(true);
  });

  test('refuses another body, another secret, or a re-serialised body', () => {
    expect(verifySignature(`${BODY} `, HEADER, SECRET)).toBe(false);
    expect(verifySignature(JSON.stringify(JSON.parse(BODY), null, 2), HEADER, SECRET)).toBe(false);
    expect(verifySignature(BODY, HEADER, `${SECRET}x`)).toBe(false);
    expect(verifySignature(BODY, HEADER, 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSW')).toBe(false);
  });

  test('is false, not an exception, for missing or malformed headers and empty secrets', () => {
    for (const header of [
      undefined,
      '',
      'sha256=',
      HEADER.slice(0, -2),
      `${HEADER}00`,
      HEADER.replace('sha256=', 'sha1='),
      HEADER.replace('sha256=', ''),
      `sha256=${'z'.repeat(64)}`,
      `${HEADER},${HEADER}`,
    ]) {
      expect(verifySignature(BODY, header, SECRET), String(header)).toBe(false);
    }
    expect(verifySignature(BODY, HEADER, '')).toBe(false);
    expect(verifySignature(BODY, 42 as unknown as string, SECRET)).toBe(false);
  });
});
