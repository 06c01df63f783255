import type { Kysely } from 'kysely';
import type { Database } from '../db/database.js';

/** The dashboard's languages; the first is the default (docs/decisions/dashboard-language.md). */
export const DASHBOARD_LOCALES = ['pt-BR', 'en'] as const;
export type DashboardLocale = (typeof DASHBOARD_LOCALES)[number];

/** The zone's canonical IANA name (`america/sao_paulo` → `America/Sao_Paulo`), or null when no zone has it. */
export function canonicalTimeZone(zone: string): string | null {
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: zone }).resolvedOptions().timeZone;
  } catch {
    return null;
  }
}

/**
 * The dashboard language an `Accept-Language` header prefers (by its q-values; `pt-PT` reads pt-BR, `en-US`
 * English), else the default. The page's `<html lang>` and loading text until the frontend knows the user.
 */
export function negotiateLocale(header: string | undefined): DashboardLocale {
  const ranges = (header ?? '')
    .split(',')
    .map((part, index) => {
      const [range = '', ...params] = part.trim().split(';');
      const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find(Boolean);
      return { base: range.trim().toLowerCase().split('-')[0], q: q === undefined ? 1 : Number(q), index };
    })
    .filter((range) => range.base && range.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index);
  for (const range of ranges) {
    const found = DASHBOARD_LOCALES.find((locale) => locale.toLowerCase().split('-')[0] === range.base);
    if (found) return found;
  }
  return DASHBOARD_LOCALES[0];
}

export interface Preferences {
  locale?: DashboardLocale | null;
  timeZone?: string | null;
}

/** Saves what `changes` names (null forgets a choice) and answers the user's preferences as they now are. */
export async function setPreferences(
  db: Kysely<Database>,
  userId: string,
  changes: Preferences,
  now: Date,
): Promise<{ locale: string | null; timeZone: string | null }> {
  await db
    .updateTable('dashboard_users')
    .set({
      ...(changes.locale !== undefined && { locale: changes.locale }),
      ...(changes.timeZone !== undefined && { time_zone: changes.timeZone }),
      updated_at: now.toISOString(),
    })
    .where('id', '=', userId)
    .execute();
  const row = await db
    .selectFrom('dashboard_users')
    .select(['locale', 'time_zone'])
    .where('id', '=', userId)
    .executeTakeFirstOrThrow();
  return { locale: row.locale, timeZone: row.time_zone };
}
