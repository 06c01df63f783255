/** The six browser types the service's interface knows. */
export type BrowserType = 'Chrome' | 'Firefox' | 'Safari' | 'Edge' | 'Opera' | 'Other';

// Order matters: browsers built on Chromium or WebKit also carry `Chrome/` or `Safari/`, so the
// distinctive tokens are tested before the generic ones. The service reads the same strings with
// ua-parser-js 1.x; both sides are held to ../shared/vectors/user-agents.json.
const RULES: ReadonlyArray<readonly [RegExp, BrowserType]> = [
  // Browsers ua-parser-js names as themselves (so not one of the five): Chromium/WebKit forks, desktop app
  // shells (Electron) and in-app views.
  [
    /(?:Samsung|UC?|Ya|Miui|Huawei|QQ)Browser|Vivaldi|FB_IAB|FBA[NV]\/|Instagram|DuckDuckGo|Ddg\/|Trident\/|MSIE |Whale\/|Silk\/|GSA\/|Line\/|Electron\/|MicroMessenger|Avast\/|Snapchat/,
    'Other',
  ],
  [/\bEdg(?:e|A|iOS)?\//, 'Edge'],
  [/\bOPR\/|\bOPT\/|\bOpera\b/, 'Opera'],
  [/\bFirefox\/|\bFxiOS\/|Focus\//, 'Firefox'],
  [/\b(?:Headless)?Chrom(?:e|ium)\/|\bCriOS\//, 'Chrome'],
  // Any other WebKit page that says Safari/ (TV and app shells without Version/ too), as ua-parser-js reads it.
  [/WebKit\/.*Safari\/\d/, 'Safari'],
];

/** Classifies a user-agent string into the service's browser `type`. */
export function browserType(userAgent: string): BrowserType {
  for (const [pattern, type] of RULES) if (pattern.test(userAgent)) return type;
  return 'Other';
}
