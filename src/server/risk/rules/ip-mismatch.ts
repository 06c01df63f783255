import { isIP } from 'node:net';
import { type RiskInput, riskRule } from '../types.js';

/** `::ffff:203.0.113.7` and `203.0.113.7` are one address; IPv6 is compared in lower case. */
export function normalizeIp(ip: string): string {
  const trimmed = ip.trim().toLowerCase();
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(trimmed);
  return mapped ? mapped[1]! : trimmed;
}

/**
 * The public IP the browser found for itself: the SDK's IP lookup when it answered, else what the page
 * declared when it created the session. Null when neither is known.
 */
export function clientReportedIp(input: RiskInput): string | null {
  const lookup = input.session.signals?.ipLookup;
  if (lookup?.status === 'ok' && lookup.ipAddress) return lookup.ipAddress;
  return input.session.declared.ipAddress;
}

export const ipMismatch = riskRule({
  code: 'IP_MISMATCH',
  description:
    'The public IP the browser reported (IP lookup or declared ip_address) differs from the IP the service saw. ' +
    'Only compared within one family: a dual-stack buyer may reach the lookup over IPv4 and the service over IPv6.',
  applies: (input) => {
    const reported = clientReportedIp(input);
    if (!reported) return false;
    const client = normalizeIp(reported);
    const observed = normalizeIp(input.session.observed.ipAddress);
    const family = isIP(client);
    if (family === 0 || family !== isIP(observed)) return false;
    return client !== observed;
  },
});
