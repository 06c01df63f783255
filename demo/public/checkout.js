// Page 1: the SDK came from <script src=".../sdk/v1/sdk.js">, which defines window.Sdk. The card helpers the form
// validates with as the buyer types are static properties of it (Sdk.validateCard, Sdk.cardBrand, …).
// (A classic script: a top-level `const Sdk` here would clash with the SDK's global.)

window.DemoUi.run(window.Sdk, 'script', {
  validateCard: window.Sdk.validateCard,
  cardBrand: window.Sdk.cardBrand,
  CARD_LENGTHS: window.Sdk.CARD_LENGTHS,
  cvvLength: window.Sdk.cvvLength,
});
