import { riskRule } from '../types.js';

export const visitorManyBuyers = riskRule({
  code: 'VISITOR_MANY_BUYERS',
  description:
    'The device paid for more distinct buyers (customer documents or e-mails) than the policy allows within the ' +
    "linking window, this charge's included (more than 3 in 24 hours by default): one device behind many accounts.",
  applies: ({ history }, policy) => (history.visitor?.buyers ?? 0) > policy.linking.maxBuyers,
});
