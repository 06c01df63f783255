/** Digits only: spaces and dashes that buyers type (or formatters insert) are dropped. */
export const normalizeCardNumber = (number: string): string => number.replace(/[\s-]/g, '');
