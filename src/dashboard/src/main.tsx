import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { call, useSession } from './api.js';
import type { Messages } from './i18n/index.js';
import {
  browserLocale,
  isLocale,
  type Locale,
  loadArea,
  locale,
  setLanguage,
  t,
  timeZone,
} from './i18n/index.js';
import { match, navigate, useLocation } from './router.js';
import { Lazy, Link, Notice } from './ui.js';

export interface SessionUser {
  id: string;
  email: string;
  role: 'owner' | 'developer' | 'viewer' | 'operator';
  merchant_id: string | null;
  merchant_name: string | null;
  /** Saved with the user (Preferences); null until they choose: then the browser's language decides. */
  locale: Locale | null;
  time_zone: string | null;
}

interface SessionData {
  user: SessionUser;
  csrf_token: string;
}

type Route = [
  pattern: string,
  view: (params: Record<string, string>, user: SessionUser) => preact.JSX.Element,
];

/** A page's module, once an area's words are loaded too (both at once): Home shows the balances. */
const withWords = <M,>(page: Promise<M>, name: Parameters<typeof loadArea>[0] = 'money'): Promise<M> =>
  Promise.all([page, loadArea(name)]).then(([module]) => module);

// Each page area is its own chunk, loaded when first opened, sign-in too: the first load carries the frame only
// (docs/decisions/dashboard-message-catalogue.md).
const pages = {
  signIn: () => import('./pages/sign-in.js'),
  home: () => withWords(import('./pages/home.js')),
  charges: () => import('./pages/charges.js'),
  webhooks: () => import('./pages/webhooks.js'),
  submerchants: () => import('./pages/submerchants.js'),
  bankAccounts: () => import('./pages/bank-accounts.js'),
  anticipations: () => withWords(import('./pages/anticipations.js'), 'anticipations'),
  withdrawals: () => withWords(import('./pages/withdrawals.js'), 'withdrawals'),
  developers: () => withWords(import('./pages/developers.js'), 'developers'),
  team: () => withWords(import('./pages/team.js'), 'team'),
  operator: () => withWords(import('./pages/operator.js'), 'operator'),
  preferences: () => import('./pages/preferences.js'),
  reviews: () => import('./pages/reviews.js'),
  risk: () => withWords(import('./pages/risk.js'), 'risk'),
  receivables: () => withWords(import('./pages/receivables.js')),
  wallets: () => withWords(import('./pages/wallets.js')),
  pricing: () => withWords(import('./pages/pricing.js')),
};

const MERCHANT_ROUTES: Route[] = [
  ['/', () => <Lazy load={pages.home} view={(m) => <m.HomePage />} />],
  ['/charges', () => <Lazy load={pages.charges} view={(m) => <m.ChargesPage />} />],
  [
    '/charges/:id',
    (p, user) => <Lazy load={pages.charges} view={(m) => <m.ChargePage id={p.id!} user={user} />} />,
  ],
  ['/receivables', () => <Lazy load={pages.receivables} view={(m) => <m.ReceivablesPage />} />],
  ['/wallets', () => <Lazy load={pages.wallets} view={(m) => <m.WalletsPage />} />],
  ['/wallets/:id', (p) => <Lazy load={pages.wallets} view={(m) => <m.WalletPage id={p.id!} />} />],
  ['/webhooks', (_p, user) => <Lazy load={pages.webhooks} view={(m) => <m.WebhooksPage user={user} />} />],
  [
    '/webhooks/:id',
    (p, user) => <Lazy load={pages.webhooks} view={(m) => <m.EndpointPage id={p.id!} user={user} />} />,
  ],
  ['/submerchants', () => <Lazy load={pages.submerchants} view={(m) => <m.SubmerchantsPage />} />],
  [
    '/submerchants/:id',
    (p, user) => (
      <Lazy load={pages.submerchants} view={(m) => <m.SubmerchantPage id={p.id!} user={user} />} />
    ),
  ],
  [
    '/bank-accounts',
    (_p, user) => <Lazy load={pages.bankAccounts} view={(m) => <m.BankAccountsPage user={user} />} />,
  ],
  ['/anticipations', () => <Lazy load={pages.anticipations} view={(m) => <m.AnticipationsPage />} />],
  [
    '/withdrawals',
    (_p, user) => <Lazy load={pages.withdrawals} view={(m) => <m.WithdrawalsPage user={user} />} />,
  ],
  [
    '/developers',
    (_p, user) => <Lazy load={pages.developers} view={(m) => <m.DevelopersPage user={user} />} />,
  ],
  ['/team', (_p, user) => <Lazy load={pages.team} view={(m) => <m.TeamPage user={user} />} />],
  ['/reviews', (_p, user) => <Lazy load={pages.reviews} view={(m) => <m.ReviewsPage user={user} />} />],
  ['/risk', () => <Lazy load={pages.risk} view={(m) => <m.RiskPage />} />],
];

const OPERATOR_ROUTES: Route[] = [
  ['/', () => <Lazy load={pages.operator} view={(m) => <m.ReviewQueuePage />} />],
  ['/review/:id', (p) => <Lazy load={pages.operator} view={(m) => <m.ReviewPage id={p.id!} />} />],
  ['/submerchants', () => <Lazy load={pages.operator} view={(m) => <m.OperatorSubmerchantsPage />} />],
  ['/bank-accounts', () => <Lazy load={pages.bankAccounts} view={(m) => <m.BankAccountQueuePage />} />],
  ['/anticipations', () => <Lazy load={pages.anticipations} view={(m) => <m.AnticipationQueuePage />} />],
  ['/charge-reviews', () => <Lazy load={pages.reviews} view={(m) => <m.OperatorChargeReviewsPage />} />],
  ['/merchants', () => <Lazy load={pages.operator} view={(m) => <m.MerchantsPage />} />],
  [
    '/merchants/:id/pricing',
    (p) => <Lazy load={pages.pricing} view={(m) => <m.PricingPage merchantId={p.id!} />} />,
  ],
  ['/team', (_p, user) => <Lazy load={pages.team} view={(m) => <m.TeamPage user={user} />} />],
];

type NavKey = keyof Messages['common']['nav'];

const NAV: Record<'merchant' | 'operator', [string, NavKey][]> = {
  merchant: [
    ['/', 'home'],
    ['/charges', 'charges'],
    ['/receivables', 'receivables'],
    ['/wallets', 'wallets'],
    ['/reviews', 'reviews'],
    ['/risk', 'risk'],
    ['/webhooks', 'webhooks'],
    ['/submerchants', 'submerchants'],
    ['/bank-accounts', 'bankAccounts'],
    ['/anticipations', 'anticipations'],
    ['/withdrawals', 'withdrawals'],
    ['/developers', 'developers'],
    ['/team', 'team'],
  ],
  operator: [
    ['/', 'reviewQueue'],
    ['/submerchants', 'submerchants'],
    ['/bank-accounts', 'bankAccounts'],
    ['/anticipations', 'anticipations'],
    ['/charge-reviews', 'chargeReviews'],
    ['/merchants', 'merchants'],
    ['/team', 'team'],
  ],
};

/** The language the user saved, else the one chosen on the sign-in page, else the browser's. */
const LANGUAGE_KEY = 'vigia.dashboard.language';
function unsavedLocale(): Locale {
  const chosen = localStorage.getItem(LANGUAGE_KEY);
  return isLocale(chosen) ? chosen : browserLocale(navigator.languages);
}

function Shell(props: {
  session: SessionData;
  onSignOut: () => void;
  onPreferences: (user: SessionUser) => void;
}) {
  const { path } = useLocation();
  const { user } = props.session;
  const side = user.role === 'operator' ? 'operator' : 'merchant';
  const routes: Route[] = [
    ...(side === 'operator' ? OPERATOR_ROUTES : MERCHANT_ROUTES),
    [
      '/preferences',
      (_p, current) => (
        <Lazy
          load={pages.preferences}
          view={(m) => <m.PreferencesPage user={current} onSaved={props.onPreferences} />}
        />
      ),
    ],
  ];
  let view: preact.JSX.Element = <Notice kind="error">{t.common.noPage}</Notice>;
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
      setSignOutError(t.common.signOutFailed((error as Error).message));
    }
  };
  return (
    <>
      <a class="skip" href="#main">
        {t.common.skipToContent}
      </a>
      <header class="top">
        <span class="brand">Vigia</span>
        <nav aria-label={t.common.mainNav}>
          <ul>
            {/* Only owners and the operator manage users (the service refuses the others). */}
            {NAV[side]
              .filter(([href]) => href !== '/team' || user.role === 'owner' || user.role === 'operator')
              .map(([href, label]) => (
                <li key={href} aria-current={current(href) ? 'page' : undefined}>
                  <Link href={href}>{t.common.nav[label]}</Link>
                </li>
              ))}
          </ul>
        </nav>
        <div class="who">
          <span>
            {user.email} · {user.merchant_name ?? t.common.platformOperator} · {t.common.roles[user.role]}
          </span>
          <Link href="/preferences">{t.common.preferences}</Link>
          <button type="button" onClick={signOut}>
            {t.common.signOut}
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
  // Set when the language or zone changes: App renders again, and with it every page, in the new words and formats.
  const [, setLanguageShown] = useState(`${locale} ${timeZone}`);
  const speak = async (next: Locale, zone: string | null) => {
    await setLanguage(next, zone);
    setLanguageShown(`${locale} ${timeZone}`);
  };
  const signedOut = () => {
    setSession(null);
    speak(unsavedLocale(), null);
  };
  const signedIn = async (data: SessionData) => {
    useSession(data.csrf_token, signedOut);
    await speak(data.user.locale ?? unsavedLocale(), data.user.time_zone);
    setSession(data);
  };
  useEffect(() => {
    call<SessionData | null>('GET', '/session').then(
      (answer) => (answer.data ? signedIn(answer.data) : setSession(null)),
      () => setSession(null),
    );
  }, []);
  if (path === '/set-password') {
    return <Lazy load={pages.signIn} view={(m) => <m.SetPasswordPage />} />;
  }
  if (session === undefined) return <p class="loading">{t.common.loadingDashboard}</p>;
  if (session === null) {
    return (
      <Lazy
        load={pages.signIn}
        view={(m) => (
          <m.SignInPage
            onLanguage={(next) => {
              localStorage.setItem(LANGUAGE_KEY, next);
              speak(next, null);
            }}
            onSignedIn={(data) => {
              // Home first: the frame, drawn once the language is set, reads its address when it mounts.
              navigate('/', true);
              signedIn(data as SessionData);
            }}
          />
        )}
      />
    );
  }
  return (
    <Shell
      session={session}
      onSignOut={signedOut}
      onPreferences={async (user) => {
        await speak(user.locale ?? unsavedLocale(), user.time_zone);
        setSession({ ...session, user });
      }}
    />
  );
}

const root = document.getElementById('app');
if (root) {
  setLanguage(unsavedLocale()).then(() => {
    root.textContent = '';
    render(<App />, root);
  });
}
