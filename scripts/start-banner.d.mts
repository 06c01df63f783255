// Types for start-banner.mjs, so the TypeScript test can import it.

export function dashboardUrl(apiUrl: string): Promise<string | undefined>;

export function startBanner(where: {
  apiUrl: string;
  demoUrl: string;
  dashboardUrl?: string | undefined;
  /** The demo merchant's keys: `{ secret_key, public_key }`. */
  keysFile?: string;
  /** The dashboard's demo users, written by the service in development: `{ email, password, operator? }`. */
  demoUserFile?: string;
}): string;
