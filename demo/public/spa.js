// Page 2: an application module importing the SDK's ES module build straight from the service. A bundled
// app would `import { Sdk, validateCard, … } from '@vigia/sdk'` instead; the code after the import is the same.
import { CARD_LENGTHS, cardBrand, cvvLength, Sdk, validateCard } from '__VIGIA_API_URL__/sdk/v1/esm/index.js';

window.DemoUi.run(Sdk, 'spa', { validateCard, cardBrand, CARD_LENGTHS, cvvLength });
