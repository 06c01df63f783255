import { riskRule } from '../types.js';

/**
 * The device paid at another merchant of the platform, within the sharing window, for another buyer with another
 * card: a replayed profile, or a computer that several people use (a family, an office). It cannot tell which, so
 * it weighs little alone (policy.ts) and adds to other tells. The merchant sees this code, nothing of the other
 * charge.
 */
export const deviceSharedAcrossMerchants = riskRule({
  code: 'DEVICE_SHARED_ACROSS_MERCHANTS',
  description:
    'This device recently paid at another merchant of the platform for another buyer with another card.',
  applies: ({ history }) => history.graph?.otherMerchantBuyerAndCard === true,
});
