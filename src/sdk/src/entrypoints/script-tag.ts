// Entry of the `<script src=".../sdk/v1/sdk.js">` build (dist/iife/sdk.js): `window.Sdk` is the Sdk class, with
// the rest of the public API as static properties (`Sdk.SdkError`, `Sdk.validateCard`, …), profiling by default
// with the chunk of ./profiler-chunk.ts added as a classic script beside sdk.js.
import { browserType } from '../browser-type.js';
import {
  CARD_LENGTHS,
  cardBrand,
  cvvLength,
  luhnValid,
  normalizeCardNumber,
  validateCard,
} from '../cards/index.js';
import { SdkError } from '../errors.js';
import { useDefaultProfiler } from '../profiler/index.js';
import { scriptTagProfiler } from '../profiler/load-as-script.js';
import { Sdk as CoreSdk, type SdkOptions } from '../sdk.js';

useDefaultProfiler(scriptTagProfiler);

// Only while this script is being evaluated does `currentScript` point at it; its origin is the service's.
const script = typeof document !== 'undefined' ? document.currentScript : null;
const scriptOrigin =
  script instanceof HTMLScriptElement && script.src ? new URL(script.src).origin : undefined;

class Sdk extends CoreSdk {
  static readonly SdkError = SdkError;
  static readonly browserType = browserType;
  static readonly luhnValid = luhnValid;
  static readonly cardBrand = cardBrand;
  static readonly cvvLength = cvvLength;
  static readonly validateCard = validateCard;
  static readonly normalizeCardNumber = normalizeCardNumber;
  static readonly CARD_LENGTHS = CARD_LENGTHS;

  constructor(publicKey: string, options: SdkOptions = {}) {
    super(publicKey, { ...options, baseUrl: options.baseUrl ?? scriptOrigin });
  }
}

export default Sdk;
