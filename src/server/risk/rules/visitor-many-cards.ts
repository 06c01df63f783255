import { riskRule } from '../types.js';

export const visitorManyCards = riskRule({
  code: 'VISITOR_MANY_CARDS',
  description:
    "The device (the profiler's visitor id) paid with more distinct cards than the policy allows within the " +
    "linking window, this charge's included (more than 3 in 24 hours by default): card testing.",
  applies: ({ history }, policy) => (history.visitor?.cards ?? 0) > policy.linking.maxCards,
});
