/**
 * What each risk reason code means, for people reading a charge (the service's rule descriptions are written for
 * developers). test/dashboard/catalogue.test.ts fails when a rule of the service has no entry here.
 */
export const reasons = {
  AUTOMATION_DETECTED: "The device profiler's bot detection found browser automation.",
  HEADLESS_USER_AGENT: 'The browser calls itself headless (HeadlessChrome).',
  DRIVER_GLOBALS: 'The page carries globals a browser driver injects (Selenium, Puppeteer, Playwright…).',
  EMULATED_VIEWPORT: "The page's size does not fit its window: a driver's emulated viewport.",
  HISTORY_UNTHROTTLED: 'Chromium launched without its history-update limit, as browser drivers launch it.',
  NATIVE_LIES: "The browser's built-in functions were replaced or wrapped: a stealth kit or an extension.",
  WORKER_MISMATCH:
    "A worker of the page describes another device than the page: the page's JavaScript was patched.",
  IFRAME_MISMATCH: 'A fresh iframe describes another device than the page: the page was patched.',
  DEVTOOLS_PROTOCOL: "A remote-control client read the page's console: a browser driver.",
  HOST_NOT_ALLOWED: "The checkout page is not on one of the merchant's allowed hosts.",
  BROWSER_TYPE_MISMATCH: 'The browser the SDK declared differs from its user agent.',
  IP_MISMATCH: 'The public IP the browser reported differs from the one the service saw.',
  DEVICE_VELOCITY: 'This device made too many charges with the merchant within the hour.',
  CARD_VELOCITY: 'This card made too many charges with the merchant within the hour.',
  PROFILE_MISSING: 'No device profile reached the service before the charge.',
  COOKIES_DISABLED: 'The browser has cookies disabled.',
  SIGNALS_MISSING: 'No signals report reached the session before the charge.',
  PROFILE_UNCORROBORATED: 'The profiler report lacks what every real profiler run produces: it was made up.',
  SIGNALS_USER_AGENT_CHANGED:
    'The signals came with another User-Agent than the session: another client sent them.',
  SIGNALS_IP_CHANGED: 'The signals came from another IP than the session.',
  SIGNALS_TOO_FAST: 'The profiler report arrived faster than a profiler can run.',
  COMPONENTS_CONTRADICT_USER_AGENT: "The device's components contradict its user agent.",
  CHALLENGE_WRONG: "The answers to the session challenge are not the claimed browser engine's.",
  CHALLENGE_UNANSWERED: 'The profiler report came without the answers to the session challenge.',
  FETCH_METADATA_MISSING: "The browser's requests lack the Fetch Metadata headers its engine always sends.",
  CLIENT_HINTS_CONTRADICT_USER_AGENT: "The browser's client hints contradict its User-Agent.",
  ACCEPT_LANGUAGE_MISMATCH: "The browser's Accept-Language is missing or differs from the page's language.",
  VISITOR_REUSED: "This device's id was reported by another browser engine or operating system.",
  VISITOR_MANY_CARDS: 'This device paid with too many different cards within 24 hours: card testing.',
  VISITOR_MANY_BUYERS: 'This device paid for too many different buyers within 24 hours.',
  VISITOR_MANY_IPS: "This device's sessions came from too many IPs within 24 hours: rotating proxies.",
  DEVICE_SHARED_ACROSS_MERCHANTS:
    'This device recently paid at another merchant for another buyer with another card.',
  DEVICE_CARDS_ACROSS_MERCHANTS: 'This device used many cards at several merchants within a short time.',
  VISITOR_ID_FORGED: "This device's id was seen with other device components: the report was edited.",
  BEHAVIOR_POINTER_TELEPORT: 'Every click landed with no pointer movement before it: a driver clicking.',
  BEHAVIOR_SCRIPTED_INPUT:
    'A checkout field got its value with no typing, paste or autofill: set by a script.',
  BEHAVIOR_ROBOTIC_TYPING: 'The typing had no human rhythm.',
  BEHAVIOR_TOO_FAST: 'The form was typed faster than any person types.',
  FRAUD_LABEL_AT_MERCHANT: 'This card, buyer or device was on a charge you confirmed as fraud.',
  FRAUD_LABEL_ON_PLATFORM:
    'This card, buyer or device was on a charge confirmed as fraud elsewhere on the platform.',
};
