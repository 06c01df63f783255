// Page 1: the SDK came from <script src=".../sdk/v1/sdk.js">, which defines window.Sdk.

window.DemoUi.run(window.Sdk, 'script tag');
