import { useState } from 'preact/hooks';
import { call } from '../api.js';
import { navigate } from '../router.js';
import { FieldErrors, inputValue, Notice, useAction } from '../ui.js';

export function SignInPage(props: { onSignedIn: (data: unknown) => void }) {
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
  document.title = 'Sign in · Vigia dashboard';
  return (
    <main id="main" class="narrow">
      <h1>Sign in to Vigia</h1>
      <form onSubmit={submit} class="stack">
        <label>
          E-mail
          <input
            type="email"
            autoComplete="username"
            required
            value={email}
            onInput={(e) => setEmail(inputValue(e))}
          />
        </label>
        <label>
          Password
          <input
            type="password"
            autoComplete="current-password"
            required
            value={password}
            onInput={(e) => setPassword(inputValue(e))}
          />
        </label>
        <FieldErrors error={action.error} />
        <button type="submit" class="primary" disabled={action.busy}>
          Sign in
        </button>
      </form>
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
  document.title = 'Set your password · Vigia dashboard';
  return (
    <main id="main" class="narrow">
      <h1>Set your password</h1>
      {done ? (
        <>
          <Notice kind="success">Password set.</Notice>
          <button type="button" class="primary" onClick={() => navigate('/')}>
            Go to sign-in
          </button>
        </>
      ) : (
        <form onSubmit={submit} class="stack">
          <p>At least 12 characters. A long phrase is easier to remember and harder to guess.</p>
          <label>
            New password
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
            Repeat it
            <input
              type="password"
              autoComplete="new-password"
              required
              value={repeat}
              aria-invalid={mismatch}
              onInput={(e) => setRepeat(inputValue(e))}
            />
          </label>
          {mismatch && <Notice kind="error">The two passwords differ.</Notice>}
          <FieldErrors error={action.error} />
          <button type="submit" class="primary" disabled={action.busy || !token}>
            Set password
          </button>
        </form>
      )}
    </main>
  );
}
