import { ApiError, businessRule } from '../errors.js';

/** Onboarding's own rejection codes that more than one route raises (docs/submerchants.md lists every code). */

export const representativesOnlyForCompanies = (submerchantId: string) =>
  businessRule(
    'REPRESENTATIVE_NOT_ALLOWED_FOR_PF',
    `Submerchant ${submerchantId} is a person (entity_type pf): its personal data is in the submerchant record, so it takes no legal representatives. Only a company (pj) has them.`,
  );

export const representativeRequired = (message: string) => businessRule('REPRESENTATIVE_REQUIRED', message);

export const testModeOnly = () =>
  new ApiError(
    403,
    'TEST_MODE_ONLY',
    'This route exists in test mode only (keys sk_test_…): in live mode the platform operator reviews submerchants.',
  );
