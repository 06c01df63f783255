import { useState } from 'preact/hooks';
import { call } from '../api.js';
import { LOCALES, type Locale, locale, t } from '../i18n/index.js';
import { navigate } from '../router.js';
import { FieldErrors, inputValue, Notice, useAction } from '../ui.js';

/** Before sign-in the language is the browser's; a choice here is kept in this browser until the user saves one. */
function LanguageChoice(props: { onLanguage: (locale: Locale) => void }) {
  return (
    <label>
      {t.signIn.language}
      <select value={locale} onChange={(event) => props.onLanguage(event.currentTarget.value as Locale)}>
        {LOCALES.map((option) => (
          <option key={option} value={option} lang={option}>
            {t.preferences.languages[option]}
          </option>
        ))}
      </select>
    </label>
  );
}

export function SignInPage(props: {
  onSignedIn: (data: unknown) => void;
  onLanguage: (locale: Locale) => void;
}) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const action = useAction();
  const submit = async (event: Event) => {
    event.preventDefault();
    await action.run(async () => {
      const answer = await call('POST', '/session', { email, password });
      props.onSignedIn(answer.data);
    });
  };
  document.title = t.common.pageTitle(t.signIn.title);
  return (
    <main id="main" class="narrow">
      <h1>{t.signIn.heading}</h1>
      <form onSubmit={submit} class="stack">
        <label>
          {t.signIn.email}
          <input
            type="email"
            autoComplete="username"
            required
            value={email}
            onInput={(e) => setEmail(inputValue(e))}
          />
        </label>
        <label>
          {t.signIn.password}
          <input
            type="password"
            autoComplete="current-password"
            required
            value={password}
            onInput={(e) => setPassword(inputValue(e))}
          />
        </label>
        {action.error?.code === 'UNAUTHORIZED' ? (
          <Notice kind="error">{t.signIn.refused}</Notice>
        ) : (
          <FieldErrors error={action.error} />
        )}
        <button type="submit" class="primary" disabled={action.busy}>
          {t.signIn.submit}
        </button>
      </form>
      <LanguageChoice onLanguage={props.onLanguage} />
    </main>
  );
}

/** Where the one-time link of `vigia user create` leads: the token is in the fragment, never sent in a URL. */
export function SetPasswordPage() {
  const token = new URLSearchParams(location.hash.slice(1)).get('token') ?? '';
  const [password, setPassword] = useState('');
  const [repeat, setRepeat] = useState('');
  const [done, setDone] = useState(false);
  const action = useAction();
  const mismatch = repeat !== '' && repeat !== password;
  const submit = async (event: Event) => {
    event.preventDefault();
    if (mismatch) return;
    if (await action.run(() => call('POST', '/password', { token, password }))) {
      history.replaceState(null, '', location.pathname);
      setDone(true);
    }
  };
  document.title = t.common.pageTitle(t.signIn.setPasswordTitle);
  return (
    <main id="main" class="narrow">
      <h1>{t.signIn.setPasswordTitle}</h1>
      {done ? (
        <>
          <Notice kind="success">{t.signIn.passwordSet}</Notice>
          <button type="button" class="primary" onClick={() => navigate('/')}>
            {t.signIn.goToSignIn}
          </button>
        </>
      ) : (
        <form onSubmit={submit} class="stack">
          <p>{t.signIn.passwordAdvice}</p>
          <label>
            {t.signIn.newPassword}
            <input
              type="password"
              autoComplete="new-password"
              minLength={12}
              required
              value={password}
              onInput={(e) => setPassword(inputValue(e))}
            />
          </label>
          <label>
            {t.signIn.repeat}
            <input
              type="password"
              autoComplete="new-password"
              required
              value={repeat}
              aria-invalid={mismatch}
              onInput={(e) => setRepeat(inputValue(e))}
            />
          </label>
          {mismatch && <Notice kind="error">{t.signIn.mismatch}</Notice>}
          <FieldErrors error={action.error} />
          <button type="submit" class="primary" disabled={action.busy || !token}>
            {t.signIn.setPassword}
          </button>
        </form>
      )}
    </main>
  );
}
