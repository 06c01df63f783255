import { useState } from 'preact/hooks';
import { call } from '../api.js';
import { DEFAULT_TIME_ZONE, LOCALES, type Locale, locale, t, timeZone } from '../i18n/index.js';
import type { SessionUser } from '../main.js';
import { FieldErrors, inputValue, Notice, Page, useAction } from '../ui.js';

/** Every zone the browser knows, the default first (the service accepts the same IANA names). */
const zones = (): string[] => {
  const all = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  return [DEFAULT_TIME_ZONE, ...all.filter((zone) => zone !== DEFAULT_TIME_ZONE)];
};

/** The user's language and time zone, saved with the user (PATCH /dashboard/api/me). */
export function PreferencesPage(props: { user: SessionUser; onSaved: (user: SessionUser) => void }) {
  const [language, setLanguage] = useState<Locale>(locale);
  const [zone, setZone] = useState(timeZone);
  const [saved, setSaved] = useState(false);
  const action = useAction();
  const submit = async (event: Event) => {
    event.preventDefault();
    setSaved(false);
    await action.run(async () => {
      const answer = await call<Pick<SessionUser, 'locale' | 'time_zone'>>('PATCH', '/me', {
        locale: language,
        time_zone: zone,
      });
      props.onSaved({ ...props.user, ...answer.data });
    });
    setSaved(true);
  };
  return (
    <Page title={t.preferences.title}>
      <form onSubmit={submit} class="stack card">
        <p>{t.preferences.intro}</p>
        <label>
          {t.preferences.language}
          <select value={language} onChange={(event) => setLanguage(inputValue(event) as Locale)}>
            {LOCALES.map((option) => (
              <option key={option} value={option} lang={option}>
                {t.preferences.languages[option]}
              </option>
            ))}
          </select>
        </label>
        <label>
          {t.preferences.timeZone}
          <select value={zone} onChange={(event) => setZone(inputValue(event))} aria-describedby="zone-hint">
            {zones().map((option) => (
              <option key={option} value={option}>
                {option.replaceAll('_', ' ')}
              </option>
            ))}
          </select>
        </label>
        <p id="zone-hint" class="muted">
          {t.preferences.timeZoneHint}
        </p>
        <FieldErrors error={action.error} />
        {saved && !action.error && <Notice kind="success">{t.preferences.saved}</Notice>}
        <button type="submit" class="primary" disabled={action.busy}>
          {t.preferences.save}
        </button>
      </form>
    </Page>
  );
}
