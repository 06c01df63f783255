import { businessRule, type ErrorCatalogue } from '../errors.js';

/** The merchants' own refusals (the generic ones — 400, 404 — come from errors.ts). */
export const MERCHANTS_ERRORS = {
  MERCHANT_DOCUMENT_ALREADY_SET: {
    status: 422,
    meaning: 'The merchant already has a CPF/CNPJ on record; a merchant records its own only once.',
    action: 'Ask the platform operator to change it (PATCH /v1/operator/merchants/:id).',
  },
} as const satisfies ErrorCatalogue;

export const merchantDocumentAlreadySet = () =>
  businessRule(
    'MERCHANT_DOCUMENT_ALREADY_SET',
    'Your account already has a CPF/CNPJ on record (document): ask the platform operator to change it.',
    [{ field: 'document', message: 'document is already recorded.' }],
  );
