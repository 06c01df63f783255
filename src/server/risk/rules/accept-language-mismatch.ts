import { engineClaim, seenRequests } from '../browser-requests.js';
import { riskRule } from '../types.js';

/** `pt-BR` → `pt`; `en_US` → `en`; `C` → `c`. */
const baseLanguage = (tag: string) => tag.trim().split(/[-_]/)[0]!.toLowerCase();

/** The header's preferred language (`pt-BR,pt;q=0.9` → `pt-BR`); null for none or `*`. */
export function firstAcceptedLanguage(header: string | undefined): string | null {
  const first = header?.split(',')[0]?.split(';')[0]?.trim();
  return first && first !== '*' ? first : null;
}

/** The page's `navigator.language` from the profiler's `languages` component (`[[language], languages]`). */
export function reportedLanguage(languages: unknown): string | null {
  const first = Array.isArray(languages) ? languages[0] : undefined;
  const language = Array.isArray(first) ? first[0] : first;
  return typeof language === 'string' && language.trim() !== '' ? language : null;
}

export const acceptLanguageMismatch = riskRule({
  code: 'ACCEPT_LANGUAGE_MISMATCH',
  description:
    "A request of the session with a browser's User-Agent has no Accept-Language or `*` (no browser sends " +
    "either), or prefers another language than the page's navigator.language reported by the profiler.",
  applies: ({ session }) => {
    const reported = reportedLanguage(session.signals?.profiler?.components.languages);
    return seenRequests(session).some(({ userAgent, headers }) => {
      if (!engineClaim(userAgent)) return false;
      const accepted = firstAcceptedLanguage(headers.values['accept-language']);
      if (accepted === null) return true;
      return reported !== null && baseLanguage(accepted) !== baseLanguage(reported);
    });
  },
});
