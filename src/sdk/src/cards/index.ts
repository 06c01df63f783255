export { CARD_LENGTHS, type CardBrand, cardBrand, cvvLength } from './brand.js';
export { luhnValid } from './luhn.js';
export { normalizeCardNumber } from './number.js';
export {
  type CardErrorCode,
  type CardField,
  type CardFieldError,
  type CardInput,
  validateCard,
} from './validate.js';
