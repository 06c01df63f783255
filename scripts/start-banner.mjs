// The lines `npm start` prints once the service and the demo answer: where everything is and what to sign in
// with. What is not there is left out (no dashboard route yet, no demo user file, no keys file).

import { existsSync, readFileSync } from 'node:fs';

/** `email   password …` of a `{ email, password }` the service wrote, or undefined. */
function signIn(user) {
  if (typeof user?.email !== 'string') return undefined;
  return `${user.email}${typeof user.password === 'string' ? `   password ${user.password}` : ''}`;
}

function readJson(file) {
  if (!file || !existsSync(file)) return undefined;
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
}

/** Whether the service has a dashboard: anything but 404 at /dashboard (a sign-in redirect counts). */
export async function dashboardUrl(apiUrl) {
  const url = `${apiUrl}/dashboard`;
  try {
    const response = await fetch(url, { redirect: 'manual', signal: AbortSignal.timeout(3000) });
    return response.status === 404 ? undefined : url;
  } catch {
    return undefined;
  }
}

/**
 * @param {{ apiUrl: string, demoUrl: string, dashboardUrl?: string, keysFile?: string, demoUserFile?: string }} where
 * @returns {string}
 */
export function startBanner({ apiUrl, demoUrl, dashboardUrl, keysFile, demoUserFile }) {
  const keys = readJson(keysFile);
  const user = readJson(demoUserFile);
  const row = (label, value) => `  ${label.padEnd(13)}${value}`;
  return [
    '',
    row('Vigia API', `${apiUrl}   (reference: ${apiUrl}/docs)`),
    row('Demo shop', `${demoUrl}/   (script tag)   ${demoUrl}/spa   (ES module)`),
    ...(dashboardUrl ? [row('Dashboard', dashboardUrl)] : []),
    ...(dashboardUrl && signIn(user) ? [row('Demo user', signIn(user))] : []),
    ...(dashboardUrl && signIn(user?.operator) ? [row('Operator', signIn(user.operator))] : []),
    ...(typeof keys?.secret_key === 'string'
      ? [
          row('Secret key', `${keys.secret_key}   (your server; test mode)`),
          row('Public key', `${keys.public_key}   (the checkout page)`),
        ]
      : []),
    '',
    '  Ctrl-C stops both.',
    '',
  ].join('\n');
}
