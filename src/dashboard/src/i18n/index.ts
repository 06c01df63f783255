import type { AnticipationMessages } from './en/anticipations.js';
import type { DeveloperMessages } from './en/developers.js';
import type { Messages } from './en/index.js';
import type { MoneyMessages } from './en/money.js';
import type { OperatorMessages } from './en/operator.js';
import type { RiskMessages } from './en/risk.js';
import type { TeamMessages } from './en/team.js';
import type { WithdrawalMessages } from './en/withdrawals.js';

// The dashboard's words and formats. Each language is its own chunk, loaded before the first render and on a
// change of language, so the first load carries one language only (docs/decisions/dashboard-message-catalogue.md).

export type { Messages };
export type Locale = 'pt-BR' | 'en';

export const LOCALES: readonly Locale[] = ['pt-BR', 'en'];
export const DEFAULT_LOCALE: Locale = 'pt-BR';
export const DEFAULT_TIME_ZONE = 'America/Sao_Paulo';

const CATALOGUES: Record<Locale, () => Promise<Messages>> = {
  'pt-BR': () => import('./pt-BR/index.js').then((module) => module.messages),
  en: () => import('./en/index.js').then((module) => module.messages),
};

/**
 * Page areas whose words load with their pages rather than with the language: the first load carries the frame's
 * and the first pages' words only. Each area is typed by its English catalogue, as `Messages` is.
 */
type AreaMessages = {
  money: MoneyMessages;
  risk: RiskMessages;
  team: TeamMessages;
  anticipations: AnticipationMessages;
  developers: DeveloperMessages;
  withdrawals: WithdrawalMessages;
  operator: OperatorMessages;
};
const AREA_CATALOGUES: { [A in keyof AreaMessages]: Record<Locale, () => Promise<AreaMessages[A]>> } = {
  money: {
    'pt-BR': () => import('./pt-BR/money.js').then((module) => module.money),
    en: () => import('./en/money.js').then((module) => module.money),
  },
  risk: {
    'pt-BR': () => import('./pt-BR/risk.js').then((module) => module.risk),
    en: () => import('./en/risk.js').then((module) => module.risk),
  },
  team: {
    'pt-BR': () => import('./pt-BR/team.js').then((module) => module.team),
    en: () => import('./en/team.js').then((module) => module.team),
  },
  anticipations: {
    'pt-BR': () => import('./pt-BR/anticipations.js').then((module) => module.anticipations),
    en: () => import('./en/anticipations.js').then((module) => module.anticipations),
  },
  developers: {
    'pt-BR': () => import('./pt-BR/developers.js').then((module) => module.developers),
    en: () => import('./en/developers.js').then((module) => module.developers),
  },
  withdrawals: {
    'pt-BR': () => import('./pt-BR/withdrawals.js').then((module) => module.withdrawals),
    en: () => import('./en/withdrawals.js').then((module) => module.withdrawals),
  },
  operator: {
    'pt-BR': () => import('./pt-BR/operator.js').then((module) => module.operator),
    en: () => import('./en/operator.js').then((module) => module.operator),
  },
};

/**
 * The words of the areas loaded so far, in the current language (`area.money.wallets.title`): read an area only in
 * pages whose loader awaited `loadArea` for it.
 */
export const area = {} as AreaMessages;

// An area's words, set by its name (TypeScript cannot follow a name of the union to its own catalogue's type).
const setArea = (name: keyof AreaMessages, words: AreaMessages[keyof AreaMessages]) => {
  (area as Record<string, unknown>)[name] = words;
};

export async function loadArea(name: keyof AreaMessages): Promise<void> {
  if (!(name in area)) setArea(name, await AREA_CATALOGUES[name][locale]());
}

/**
 * The formats of each language: English reads dates day first too (dd/mm/yyyy, en-GB), as the amounts beside
 * them are in reais and a US month-first date would be read wrong by half the readers.
 */
const INTL_LOCALE: Record<Locale, string> = { 'pt-BR': 'pt-BR', en: 'en-GB' };

/** The current language's messages: a live binding, set by `setLanguage` before anything renders. */
export let t: Messages;
export let locale: Locale = DEFAULT_LOCALE;
export let timeZone = DEFAULT_TIME_ZONE;

export const isLocale = (value: unknown): value is Locale => LOCALES.includes(value as Locale);

/** The first of the browser's languages the dashboard speaks (`pt-PT` reads pt-BR, `en-US` English), else pt-BR. */
export function browserLocale(languages: readonly string[]): Locale {
  for (const language of languages) {
    const base = language.toLowerCase().split('-')[0];
    const found = LOCALES.find((candidate) => candidate.toLowerCase().split('-')[0] === base);
    if (found) return found;
  }
  return DEFAULT_LOCALE;
}

/** A zone the browser knows (an IANA name such as `America/Manaus`), else the default. */
export function knownTimeZone(zone: string | null | undefined): string {
  if (!zone) return DEFAULT_TIME_ZONE;
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return zone;
  } catch {
    return DEFAULT_TIME_ZONE;
  }
}

let formats = makeFormats();

/** The `Intl` locale of the current language, for the formats that pages keep in their own chunks. */
export const intlLocale = (): string => INTL_LOCALE[locale];

export async function setLanguage(next: Locale, zone: string | null = timeZone): Promise<void> {
  const loadedAreas = Object.keys(area) as (keyof AreaMessages)[];
  const areaWords = await Promise.all(loadedAreas.map((name) => AREA_CATALOGUES[name][next]()));
  t = await CATALOGUES[next]();
  for (const [index, name] of loadedAreas.entries()) setArea(name, areaWords[index]!);
  locale = next;
  timeZone = knownTimeZone(zone);
  formats = makeFormats();
  document.documentElement.lang = next;
}

function makeFormats() {
  const intl = INTL_LOCALE[locale];
  return {
    money: new Intl.NumberFormat(intl, { style: 'currency', currency: 'BRL' }),
    count: new Intl.NumberFormat(intl),
    percent: new Intl.NumberFormat(intl, {
      style: 'percent',
      minimumFractionDigits: 1,
      maximumFractionDigits: 1,
    }),
    dateTime: new Intl.DateTimeFormat(intl, {
      day: '2-digit',
      month: '2-digit',
      year: 'numeric',
      hour: '2-digit',
      minute: '2-digit',
      timeZone,
      timeZoneName: 'short',
    }),
    // A day of the service's lists and Home (`YYYY-MM-DD`, a UTC day): never shifted by a zone.
    day: new Intl.DateTimeFormat(intl, {
      day: '2-digit',
      month: '2-digit',
      year: 'numeric',
      timeZone: 'UTC',
    }),
    shortDay: new Intl.DateTimeFormat(intl, { day: '2-digit', month: '2-digit', timeZone: 'UTC' }),
  };
}

/** Centavos as reais: `R$ 1.234,56`. */
export const formatMoney = (minor: number): string => formats.money.format(minor / 100);
export const formatCount = (value: number): string => formats.count.format(value);
/** `part` of `whole` as a percentage with one decimal, or — when there is no whole. */
export const formatShare = (part: number, whole: number): string =>
  whole === 0 ? '—' : formats.percent.format(part / whole);
export const formatRatio = (ratio: number): string => formats.percent.format(ratio);
/** An instant in the user's zone, day first: `29/10/2026, 14:03 BRT`. */
export const formatTime = (iso: string | null | undefined): string =>
  iso ? formats.dateTime.format(new Date(iso)) : '—';
/** A `YYYY-MM-DD` day: `29/10/2026`. */
export const formatDay = (isoDay: string): string => formats.day.format(new Date(`${isoDay}T00:00:00Z`));
export const formatShortDay = (isoDay: string): string =>
  formats.shortDay.format(new Date(`${isoDay}T00:00:00Z`));

/** `dd/mm/yyyy` (what people type) → `YYYY-MM-DD`, or null when it is not a real day. */
export function parseDay(text: string): string | null {
  const found = /^\s*(\d{1,2})\/(\d{1,2})\/(\d{4})\s*$/.exec(text);
  if (!found) return null;
  const [day, month, year] = [Number(found[1]), Number(found[2]), Number(found[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day)
    return null;
  return date.toISOString().slice(0, 10);
}

/** A status, analysis or document state as the language says it; an unknown one as the service wrote it. */
export function statusLabel(value: string): string {
  return (t.common.statuses as Record<string, string>)[value] ?? value.replaceAll('_', ' ');
}

/** The reason code's description in the language, or the service's own for a rule newer than this catalogue. */
export function reasonText(code: string, fallback: string): string {
  return (t.reasons as Record<string, string>)[code] ?? fallback;
}

/** The dashboard's sentence for an error code; an unknown code keeps the service's (English) message. */
export function errorText(code: string, fallback: string): string {
  return (t.errors as Record<string, string>)[code] ?? fallback;
}
