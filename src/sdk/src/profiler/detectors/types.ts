/**
 * One named automation detector: a synchronous look at the page that answers whether it fired. Each is a
 * tell that does not rest on `navigator.webdriver` (which stealth tools hide), measured in docs/efficacy.md
 * for what it catches and what it costs honest buyers.
 */
export interface Detector {
  /** snake_case; the service maps it to its own reason code. */
  name: string;
  detect(window: Window): boolean;
}
