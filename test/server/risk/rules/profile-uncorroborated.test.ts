import { describe, expect, test } from 'vitest';
import { analyzeRisk } from '../../../../src/server/risk/engine.js';
import {
  BASELINE_COMPONENTS,
  profileUncorroborated,
} from '../../../../src/server/risk/rules/profile-uncorroborated.js';
import { chromiumComponents, firefoxComponents, webkitComponents } from '../../../helpers/signals.js';
import { input, policy, profiled, session } from '../fixtures.js';

const withComponents = (components: Record<string, unknown>) => profiled(components);

describe('PROFILE_UNCORROBORATED', () => {
  test('not found for the reports real profilers made in Chromium, Firefox and WebKit', () => {
    for (const components of [chromiumComponents(), firefoxComponents(), webkitComponents()]) {
      expect(profileUncorroborated.applies(input(withComponents(components)), policy)).toBe(false);
    }
  });

  test('the forged report (no components, "not a bot") is not approved: review', () => {
    const forged = withComponents({});
    expect(profileUncorroborated.applies(input(forged), policy)).toBe(true);
    expect(analyzeRisk(input(forged), policy).status).toBe('review');
  });

  test.each(Object.keys(BASELINE_COMPONENTS))('found without %s', (key) => {
    const { [key]: _left, ...rest } = chromiumComponents();
    expect(profileUncorroborated.applies(input(withComponents(rest)), policy)).toBe(true);
  });

  test('found when a baseline component has another shape than a browser gives', () => {
    for (const broken of [
      { platform: 7 },
      { hardwareConcurrency: 'eight' },
      { screenResolution: [1920] },
      { languages: 'en-US' },
      { touchSupport: null },
    ]) {
      expect(
        profileUncorroborated.applies(input(withComponents({ ...chromiumComponents(), ...broken })), policy),
      ).toBe(true);
    }
  });

  test('not found without a profile at all (that is PROFILE_MISSING)', () => {
    expect(profileUncorroborated.applies(input(session({ signals: null })), policy)).toBe(false);
  });
});
