import { riskRule } from '../types.js';

/**
 * Card testing spread over merchants so that no merchant's own velocity sees it: one device with more distinct
 * cards than a household holds, at several merchants, within the velocity window. Many buyers on one card (a
 * lab, a family paying for others) do not count: only cards do.
 */
export const deviceCardsAcrossMerchants = riskRule({
  code: 'DEVICE_CARDS_ACROSS_MERCHANTS',
  description:
    'This device used many distinct cards at several merchants of the platform within a short time (card testing across merchants).',
  applies: ({ history }, policy) =>
    history.graph != null &&
    history.graph.recentCards !== null &&
    history.graph.recentCards > policy.graph.maxCards &&
    history.graph.recentMerchants >= policy.graph.minMerchants,
});
