import { isIP } from 'node:net';
import { riskRule } from '../types.js';
import { normalizeIp } from './ip-mismatch.js';

export const signalsIpChanged = riskRule({
  code: 'SIGNALS_IP_CHANGED',
  description:
    'The signals request came from another IP than the request that created the session (compared within one ' +
    'family, as a dual-stack browser may use both): another client, a proxy, or a mobile network handover.',
  applies: ({ session }) => {
    const observed = session.signals?.observed;
    if (!observed) return false;
    const created = normalizeIp(session.observed.ipAddress);
    const reported = normalizeIp(observed.ipAddress);
    return isIP(created) !== 0 && isIP(created) === isIP(reported) && created !== reported;
  },
});
