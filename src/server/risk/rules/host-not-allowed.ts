import { isHostAllowed, originHost } from '../../http/cors.js';
import { riskRule } from '../types.js';

export const hostNotAllowed = riskRule({
  code: 'HOST_NOT_ALLOWED',
  description:
    "The page's declared host_name (or the Origin the service saw) is not in the merchant's allowed_hosts " +
    '(never found when allowed_hosts is empty).',
  applies: ({ session, merchant }) => {
    if (merchant.allowedHosts.length === 0) return false;
    if (!isHostAllowed(session.declared.hostName, merchant.allowedHosts)) return true;
    const origin = session.observed.origin ? originHost(session.observed.origin) : null;
    return origin !== null && !isHostAllowed(origin, merchant.allowedHosts);
  },
});
