import { createHmac, timingSafeEqual } from 'node:crypto';

/** `X-Service-Signature: sha256=<lowercase hex HMAC-SHA256 of the exact body bytes>`, keyed with the endpoint's secret. */
export const SIGNATURE_HEADER = 'X-Service-Signature';
export const EVENT_HEADER = 'X-Service-Event';
export const EVENT_ID_HEADER = 'X-Service-Event-Id';

const SCHEME = 'sha256=';
const HEX_DIGEST = /^[0-9a-fA-F]{64}$/;

/** The HMAC key is the whole secret string as UTF-8, `whsec_` prefix included, so any language can verify. */
export function signPayload(body: string | Buffer, secret: string): string {
  return SCHEME + createHmac('sha256', secret).update(body).digest('hex');
}

/**
 * For merchants' receivers: true when `header` (the `X-Service-Signature` value) signs `rawBody` with
 * `secret`. Pass the body exactly as received (before any JSON parsing). Compares in constant time; a missing or
 * malformed header is false, never an exception.
 */
export function verifySignature(
  rawBody: string | Buffer,
  header: string | undefined,
  secret: string,
): boolean {
  if (typeof header !== 'string' || typeof secret !== 'string' || secret === '') return false;
  const value = header.trim();
  if (!value.toLowerCase().startsWith(SCHEME)) return false;
  const given = value.slice(SCHEME.length);
  if (!HEX_DIGEST.test(given)) return false;
  const body = typeof rawBody === 'string' ? Buffer.from(rawBody, 'utf8') : rawBody;
  if (!Buffer.isBuffer(body)) return false;
  const expected = createHmac('sha256', secret).update(body).digest();
  return timingSafeEqual(expected, Buffer.from(given, 'hex'));
}
