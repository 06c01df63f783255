import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/**
 * Secrets the service must read back (webhook signing secrets) are stored sealed with AES-256-GCM under a
 * master key from configuration. The sealed form is `v1.<iv>.<ciphertext>.<tag>` (base64url parts); the
 * version prefix leaves room for a later master-key rotation. `context` (e.g. the owning row's id) is bound as
 * additional authenticated data, so a sealed value copied onto another row does not open there.
 */
export class SecretBoxError extends Error {}

const VERSION = 'v1';
const IV_BYTES = 12;
const KEY_BYTES = 32;

/** Reads a 32-byte key written as 64 hex characters or as base64/base64url; null when it is neither. */
export function parseMasterKey(text: string): Buffer | null {
  const trimmed = text.trim();
  if (/^[0-9a-fA-F]{64}$/.test(trimmed)) return Buffer.from(trimmed, 'hex');
  if (/^[A-Za-z0-9+/_-]{43}={0,1}$/.test(trimmed)) {
    const decoded = Buffer.from(trimmed.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
    if (decoded.length === KEY_BYTES) return decoded;
  }
  return null;
}

export function generateMasterKey(): Buffer {
  return randomBytes(KEY_BYTES);
}

function assertKey(key: Buffer): void {
  if (key.length !== KEY_BYTES) throw new SecretBoxError('The master key must be 32 bytes.');
}

export function sealSecret(plaintext: string, key: Buffer, context: string): string {
  assertKey(key);
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(context, 'utf8'));
  const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  const tag = cipher.getAuthTag();
  return [VERSION, iv, ciphertext, tag]
    .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
    .join('.');
}

/** Throws SecretBoxError (whose message never includes the value) when the value is malformed or was not sealed with this key and context. */
export function openSecret(sealed: string, key: Buffer, context: string): string {
  assertKey(key);
  const [version, iv, ciphertext, tag, ...rest] = sealed.split('.');
  if (version !== VERSION || !iv || ciphertext === undefined || !tag || rest.length > 0) {
    throw new SecretBoxError('The sealed secret is not in a known format.');
  }
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
    decipher.setAAD(Buffer.from(context, 'utf8'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString(
      'utf8',
    );
  } catch {
    throw new SecretBoxError(
      'The sealed secret could not be opened: wrong master key, or the value was altered.',
    );
  }
}
