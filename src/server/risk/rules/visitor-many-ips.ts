import { riskRule } from '../types.js';

export const visitorManyIps = riskRule({
  code: 'VISITOR_MANY_IPS',
  description:
    "The device's fraud sessions came from more distinct IPs than the policy allows within the linking window, " +
    "this session's included (more than 4 in 24 hours by default): rotating proxies.",
  applies: ({ history }, policy) => (history.visitor?.ips ?? 0) > policy.linking.maxIps,
});
