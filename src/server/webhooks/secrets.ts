import { randomBytes } from 'node:crypto';
import { BoundedCache } from '../core/bounded-cache.js';
import { openSecret, sealSecret } from '../core/secret-box.js';

/** `whsec_` + 32 random bytes (256 bits) in base64, the form Standard Webhooks libraries decode. */
export function generateEndpointSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

// Bound to the endpoint id, so a sealed secret copied onto another endpoint's row does not open there.
const context = (endpointId: string) => `webhook-endpoint:${endpointId}`;

export const sealEndpointSecret = (secret: string, masterKey: Buffer, endpointId: string): string =>
  sealSecret(secret, masterKey, context(endpointId));

export const openEndpointSecret = (sealed: string, masterKey: Buffer, endpointId: string): string =>
  openSecret(sealed, masterKey, context(endpointId));

/**
 * The worker's opened secrets, per endpoint and sealed value: opening (AES-GCM) for every delivery cost more than
 * signing. Keyed by the sealed text itself, so a rotated secret (a new sealed value) is opened and used at once.
 * Bounded (oldest dropped first); held in memory only, never logged.
 */
export function endpointSecretCache(masterKey: Buffer, maxEntries = 1024) {
  const opened = new BoundedCache<string, { sealed: string; secret: string }>(maxEntries);
  return (sealed: string, endpointId: string): string => {
    const cached = opened.get(endpointId);
    if (cached?.sealed === sealed) return cached.secret;
    return opened.set(endpointId, { sealed, secret: openEndpointSecret(sealed, masterKey, endpointId) })
      .secret;
  };
}
