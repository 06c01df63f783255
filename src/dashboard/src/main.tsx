import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { call, useSession } from './api.js';
import { ChargePage, ChargesPage } from './pages/charges.js';
import { DevelopersPage } from './pages/developers.js';
import { HomePage } from './pages/home.js';
import { MerchantsPage, ReviewPage, ReviewQueuePage } from './pages/operator.js';
import { OperatorChargeReviewsPage, ReviewsPage } from './pages/reviews.js';
import { SetPasswordPage, SignInPage } from './pages/sign-in.js';
import { SubmerchantPage, SubmerchantsPage } from './pages/submerchants.js';
import { TeamPage } from './pages/team.js';
import { EndpointPage, WebhooksPage } from './pages/webhooks.js';
import { match, navigate, useLocation } from './router.js';
import { Link, Notice } from './ui.js';

export interface SessionUser {
  id: string;
  email: string;
  role: 'owner' | 'developer' | 'viewer' | 'operator';
  merchant_id: string | null;
  merchant_name: string | null;
}

interface SessionData {
  user: SessionUser;
  csrf_token: string;
}

type Route = [
  pattern: string,
  view: (params: Record<string, string>, user: SessionUser) => preact.JSX.Element,
];

const MERCHANT_ROUTES: Route[] = [
  ['/', () => <HomePage />],
  ['/charges', () => <ChargesPage />],
  ['/charges/:id', (p, user) => <ChargePage id={p.id!} user={user} />],
  ['/reviews', (_p, user) => <ReviewsPage user={user} />],
  ['/webhooks', (_p, user) => <WebhooksPage user={user} />],
  ['/webhooks/:id', (p, user) => <EndpointPage id={p.id!} user={user} />],
  ['/submerchants', () => <SubmerchantsPage />],
  ['/submerchants/:id', (p, user) => <SubmerchantPage id={p.id!} user={user} />],
  ['/developers', (_p, user) => <DevelopersPage user={user} />],
  ['/team', (_p, user) => <TeamPage user={user} />],
];

const OPERATOR_ROUTES: Route[] = [
  ['/', () => <ReviewQueuePage />],
  ['/review/:id', (p) => <ReviewPage id={p.id!} />],
  ['/charge-reviews', () => <OperatorChargeReviewsPage />],
  ['/merchants', () => <MerchantsPage />],
  ['/team', (_p, user) => <TeamPage user={user} />],
];

const NAV: Record<'merchant' | 'operator', [string, string][]> = {
  merchant: [
    ['/', 'Home'],
    ['/charges', 'Charges'],
    ['/reviews', 'Reviews'],
    ['/webhooks', 'Webhooks'],
    ['/submerchants', 'Submerchants'],
    ['/developers', 'Developers'],
    ['/team', 'Team'],
  ],
  operator: [
    ['/', 'Review queue'],
    ['/charge-reviews', 'Charges in review'],
    ['/merchants', 'Merchants'],
    ['/team', 'Team'],
  ],
};

function Shell(props: { session: SessionData; onSignOut: () => void }) {
  const { path } = useLocation();
  const { user } = props.session;
  const side = user.role === 'operator' ? 'operator' : 'merchant';
  const routes = side === 'operator' ? OPERATOR_ROUTES : MERCHANT_ROUTES;
  let view: preact.JSX.Element = <Notice kind="error">There is no page at this address.</Notice>;
  for (const [pattern, render] of routes) {
    const params = match(pattern, path);
    if (params) {
      view = render(params, user);
      break;
    }
  }
  const current = (href: string) => (href === '/' ? path === '/' : path.startsWith(href));
  const [signOutError, setSignOutError] = useState<string | null>(null);
  // The page leaves only once the service closed the session: a refusal is shown, not hidden behind a reload.
  const signOut = async () => {
    try {
      await call('DELETE', '/session');
      props.onSignOut();
    } catch (error) {
      setSignOutError(`Could not sign out: ${(error as Error).message}`);
    }
  };
  return (
    <>
      <a class="skip" href="#main">
        Skip to content
      </a>
      <header class="top">
        <span class="brand">Vigia</span>
        <nav aria-label="Main">
          <ul>
            {/* Only owners and the operator manage users (the service refuses the others). */}
            {NAV[side]
              .filter(([href]) => href !== '/team' || user.role === 'owner' || user.role === 'operator')
              .map(([href, label]) => (
                <li key={href} aria-current={current(href) ? 'page' : undefined}>
                  <Link href={href}>{label}</Link>
                </li>
              ))}
          </ul>
        </nav>
        <div class="who">
          <span>
            {user.email} · {user.merchant_name ?? 'Platform operator'} · {user.role}
          </span>
          <button type="button" onClick={signOut}>
            Sign out
          </button>
        </div>
      </header>
      <main id="main" tabIndex={-1}>
        {signOutError && <Notice kind="error">{signOutError}</Notice>}
        {view}
      </main>
    </>
  );
}

function App() {
  const { path } = useLocation();
  const [session, setSession] = useState<SessionData | null | undefined>(undefined);
  const signedOut = () => {
    setSession(null);
  };
  const signedIn = (data: SessionData) => {
    useSession(data.csrf_token, signedOut);
    setSession(data);
  };
  useEffect(() => {
    call<SessionData | null>('GET', '/session').then(
      (answer) => (answer.data ? signedIn(answer.data) : setSession(null)),
      () => setSession(null),
    );
  }, []);
  if (path === '/set-password') return <SetPasswordPage />;
  if (session === undefined) return <p class="loading">Loading the dashboard…</p>;
  if (session === null) {
    return (
      <SignInPage
        onSignedIn={(data) => {
          signedIn(data as SessionData);
          navigate('/', true);
        }}
      />
    );
  }
  return <Shell session={session} onSignOut={signedOut} />;
}

const root = document.getElementById('app');
if (root) {
  root.textContent = '';
  render(<App />, root);
}
