import { type FieldCheck, notBlank } from '../fields.js';

/** The 26 states and the Federal District. */
export const BRAZILIAN_STATES = [
  'AC',
  'AL',
  'AP',
  'AM',
  'BA',
  'CE',
  'DF',
  'ES',
  'GO',
  'MA',
  'MT',
  'MS',
  'MG',
  'PA',
  'PB',
  'PR',
  'PE',
  'PI',
  'RJ',
  'RN',
  'RS',
  'RO',
  'RR',
  'SC',
  'SP',
  'SE',
  'TO',
] as const;

export interface AddressFields {
  street?: string;
  number?: string;
  complement?: string | null;
  neighborhood?: string;
  city?: string;
  state?: string;
  zip_code?: string;
  country?: string;
}

/**
 * The rules of the fields present (creation sends them all; PATCH checks the address as it will be). A Brazilian
 * address (`country` BR, the default) takes a UF code and a CEP; any other follows the interface's plain rules:
 * `state` 2 characters, `zip_code` 8 to 10.
 */
export function addressChecks(fields: AddressFields): FieldCheck[] {
  const { state, zip_code: zipCode, country } = fields;
  const brazilian = (country ?? 'BR').toUpperCase() === 'BR';
  return [
    notBlank('street', fields.street),
    notBlank('number', fields.number),
    notBlank('complement', fields.complement),
    notBlank('neighborhood', fields.neighborhood),
    notBlank('city', fields.city),
    state !== undefined &&
      (brazilian
        ? {
            field: 'state',
            failed:
              state.length !== 2 || !(BRAZILIAN_STATES as readonly string[]).includes(state.toUpperCase()),
            message: `state must be exactly 2 characters, a Brazilian state code (${BRAZILIAN_STATES.join(', ')}).`,
          }
        : { field: 'state', failed: state.length !== 2, message: 'state must be exactly 2 characters.' }),
    zipCode !== undefined &&
      (brazilian
        ? {
            field: 'zip_code',
            failed:
              zipCode.length < 8 ||
              zipCode.length > 10 ||
              !/^[\d.-]+$/.test(zipCode) ||
              zipCode.replace(/\D/g, '').length !== 8,
            message:
              'zip_code must be 8 to 10 characters: the 8 digits of the CEP, optionally with - or . (01310-100).',
          }
        : {
            field: 'zip_code',
            failed: zipCode.length < 8 || zipCode.length > 10,
            message: 'zip_code must be 8 to 10 characters.',
          }),
    country !== undefined && {
      field: 'country',
      failed: !/^[A-Za-z]{2}$/.test(country),
      message: 'country must be a 2-letter ISO 3166-1 code, e.g. BR.',
    },
  ];
}
