import { describe, expect, test } from 'vitest';
import {
  acceptLanguageMismatch,
  firstAcceptedLanguage,
  reportedLanguage,
} from '../../../../src/server/risk/rules/accept-language-mismatch.js';
import {
  CHROMIUM_156_LINUX,
  chromiumHeaders,
  FIREFOX_153_LINUX,
  firefoxHeaders,
  MINIBROWSER,
  nodeFetchHeaders,
  webkitHeaders,
} from '../../../helpers/request-headers.js';
import { chromiumComponents, firefoxComponents, webkitComponents } from '../../../helpers/signals.js';
import { input, policy, requested, session } from '../fixtures.js';

const applies = (...args: Parameters<typeof requested>) =>
  acceptLanguageMismatch.applies(input(requested(...args)), policy);

function accepting(headers: ReturnType<typeof chromiumHeaders>, language: string | undefined) {
  const values = { ...headers.values };
  if (language === undefined) delete values['accept-language'];
  else values['accept-language'] = language;
  return { ...headers, values };
}

describe('ACCEPT_LANGUAGE_MISMATCH', () => {
  test("reads the header's first language and the profiler's navigator.language", () => {
    expect(firstAcceptedLanguage('pt-BR,pt;q=0.9,en;q=0.8')).toBe('pt-BR');
    expect(firstAcceptedLanguage('*')).toBeNull();
    expect(firstAcceptedLanguage(undefined)).toBeNull();
    expect(reportedLanguage([['pt-BR'], ['pt-BR', 'en']])).toBe('pt-BR');
    expect(reportedLanguage(undefined)).toBeNull();
  });

  test('not found for what the engines send with their own reports (WebKitGTK under LANG=C says C twice)', () => {
    const ptBr = accepting(chromiumHeaders(), 'pt-BR,pt;q=0.9');
    expect(applies(CHROMIUM_156_LINUX, ptBr, { components: chromiumComponents('Linux') })).toBe(false);
    expect(applies(FIREFOX_153_LINUX, firefoxHeaders(), { components: firefoxComponents('Linux') })).toBe(
      false,
    );
    expect(applies(MINIBROWSER, webkitHeaders(), { components: webkitComponents() })).toBe(false);
  });

  test('compares base languages, case-insensitively: en-GB against en-US, PT_br against pt-BR', () => {
    const components = { ...chromiumComponents('Linux'), languages: [['en-US']] };
    expect(applies(CHROMIUM_156_LINUX, accepting(chromiumHeaders(), 'en-GB,en;q=0.9'), { components })).toBe(
      false,
    );
    expect(
      applies(CHROMIUM_156_LINUX, accepting(chromiumHeaders(), 'PT_br'), {
        components: chromiumComponents(),
      }),
    ).toBe(false);
  });

  test('found when the request prefers another language than the page reported', () => {
    // The profile copied from a pt-BR buyer, sent with an en-US browser's header.
    expect(applies(CHROMIUM_156_LINUX, chromiumHeaders(), { components: chromiumComponents('Linux') })).toBe(
      true,
    );
    expect(
      applies(CHROMIUM_156_LINUX, accepting(chromiumHeaders(), 'pt-BR'), {
        signals: chromiumHeaders(),
        components: chromiumComponents('Linux'),
      }),
    ).toBe(true);
  });

  test("found for `*` (Node's fetch) or no Accept-Language under a browser's user agent, profile or not", () => {
    expect(applies(CHROMIUM_156_LINUX, nodeFetchHeaders())).toBe(true);
    expect(applies(CHROMIUM_156_LINUX, nodeFetchHeaders(), { components: chromiumComponents('Linux') })).toBe(
      true,
    );
    expect(applies(FIREFOX_153_LINUX, accepting(firefoxHeaders(), undefined))).toBe(true);
  });

  test('not found where it cannot compare: no languages component, headers not recorded, not a browser', () => {
    expect(applies(CHROMIUM_156_LINUX, chromiumHeaders())).toBe(false);
    expect(acceptLanguageMismatch.applies(input(session()), policy)).toBe(false);
    expect(applies('curl/8.5.0', nodeFetchHeaders())).toBe(false);
  });
});
