import { randomBytes } from 'node:crypto';
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
