import { businessRule, type ErrorCatalogue, testModeOnly as generalTestModeOnly } from '../errors.js';

/** Onboarding's own refusals (docs/submerchants.md says which route raises which). */
export const SUBMERCHANTS_ERRORS = {
  TAX_ID_ALREADY_REGISTERED: {
    status: 422,
    meaning: 'You already registered a submerchant with this tax_id (one submerchant per tax id).',
    action: 'Update the existing submerchant the message names instead of creating another.',
  },
  REPRESENTATIVE_REQUIRED: {
    status: 422,
    meaning:
      'A company (pj) needs at least one legal representative: to be submitted for review, and to keep one ' +
      'while under review or active.',
    action: 'Add a legal representative (POST /v1/submerchants/:id/legal-representatives) first.',
  },
  REPRESENTATIVE_NOT_ALLOWED_FOR_PF: {
    status: 422,
    meaning:
      'A person (entity_type pf) takes no legal representatives: their data is in the submerchant record.',
    action: 'Do not add representatives to a pf; change entity_type to pj only if the seller is a company.',
  },
  LEGAL_REPRESENTATIVE_NOT_FOUND: {
    status: 422,
    meaning: 'A document names a legal_representative_id that is not a representative of this submerchant.',
    action: 'Add the representative first, or use one of the ids GET /v1/submerchants/:id lists.',
  },
} as const satisfies ErrorCatalogue;

export const representativesOnlyForCompanies = (submerchantId: string) =>
  businessRule(
    'REPRESENTATIVE_NOT_ALLOWED_FOR_PF',
    `Submerchant ${submerchantId} is a person (entity_type pf): its personal data is in the submerchant record, so it takes no legal representatives. Only a company (pj) has them.`,
  );

export const representativeRequired = (message: string) => businessRule('REPRESENTATIVE_REQUIRED', message);

export const testModeOnly = () =>
  generalTestModeOnly('in live mode the platform operator reviews submerchants.');
