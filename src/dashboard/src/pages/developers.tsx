import { useState } from 'preact/hooks';
import { call, get } from '../api.js';
import type { SessionUser } from '../main.js';
import {
  Confirm,
  CopyButton,
  FieldErrors,
  inputValue,
  Notice,
  Page,
  Show,
  useAction,
  useLoad,
} from '../ui.js';

interface Account {
  id: string;
  name: string;
  fraud_analysis_mandatory: boolean;
  allowed_hosts: string[];
}

interface RiskSettings {
  review_threshold: number;
  decline_threshold: number;
  custom: boolean;
  weights: Record<string, number>;
}

/** POST /keys/:kind/roll's answer (the same as POST /v1/account/keys/roll's). */
interface RolledKey {
  type: 'secret' | 'public';
  key: string;
  previous_key: { id: string; expires_at: string } | null;
}

/** The current public key with a copy button; merchants made before Vigia kept it are told to roll it. */
function PublicKey(props: { publicKey: string | null }) {
  if (props.publicKey === null) {
    return (
      <p>
        Your public key was issued before Vigia kept public keys, so it cannot be shown here. Roll the public
        key to see the new one on this page.
      </p>
    );
  }
  return (
    <p>
      Public key: <code data-testid="public-key">{props.publicKey}</code>{' '}
      <CopyButton text={props.publicKey} label="Copy the public key" />
    </p>
  );
}

function KeysSection(props: { user: SessionUser }) {
  const [rolling, setRolling] = useState<'secret' | 'public' | null>(null);
  const [issued, setIssued] = useState<RolledKey | null>(null);
  const publicKey = useLoad(() => get<{ public_key: string | null }>('/keys/public'), []);
  const action = useAction();
  const roll = (kind: 'secret' | 'public') =>
    action.run(async () => {
      const answer = await call<RolledKey>('POST', `/keys/${kind}/roll`);
      setIssued(answer.data);
      if (kind === 'public') publicKey.reload();
    });
  return (
    <section class="card" aria-labelledby="keys">
      <h2 id="keys">API keys</h2>
      <p>
        Your checkout page uses the public key (pk_…), your server the secret key (sk_…). The public key is
        public by design; Vigia keeps only a hash of your secret key, so it cannot show it again. Roll a key
        to get a new one; the old key keeps working for 24 hours, so you can deploy the new one.
      </p>
      <Show loaded={publicKey}>{({ data }) => <PublicKey publicKey={data.public_key} />}</Show>
      {issued && (
        <Notice kind="warning">
          Your new {issued.type} key, shown only now: <code>{issued.key}</code>{' '}
          <CopyButton text={issued.key} label={`Copy the new ${issued.type} key`} />
          {issued.previous_key && (
            <>
              {' '}
              The old {issued.type} key works until{' '}
              <time dateTime={issued.previous_key.expires_at}>
                {new Date(issued.previous_key.expires_at).toLocaleString()}
              </time>
              .
            </>
          )}
        </Notice>
      )}
      <FieldErrors error={action.error} />
      {props.user.role === 'owner' ? (
        <div class="actions">
          <button type="button" class="danger" onClick={() => setRolling('secret')}>
            Roll secret key
          </button>
          <button type="button" onClick={() => setRolling('public')}>
            Roll public key
          </button>
        </div>
      ) : (
        <p class="muted">Only an owner of the account can roll keys.</p>
      )}
      <Confirm
        open={rolling !== null}
        title={`Roll the ${rolling} key?`}
        confirmLabel="Roll key"
        danger
        onCancel={() => setRolling(null)}
        onConfirm={() => {
          const kind = rolling;
          setRolling(null);
          if (kind) roll(kind);
        }}
      >
        <p>
          {rolling === 'secret'
            ? 'Your server must use the new secret key within 24 hours: then the old one stops working.'
            : 'Your checkout must use the new public key within 24 hours: then the old one stops working.'}
        </p>
      </Confirm>
    </section>
  );
}

function AccountForm(props: { account: Account; canChange: boolean; onSaved: () => void }) {
  const [mandatory, setMandatory] = useState(props.account.fraud_analysis_mandatory);
  const [hosts, setHosts] = useState(props.account.allowed_hosts.join('\n'));
  const [saved, setSaved] = useState(false);
  const action = useAction();
  const submit = async (event: Event) => {
    event.preventDefault();
    setSaved(false);
    const allowed = hosts
      .split(/[\s,]+/)
      .map((host) => host.trim())
      .filter(Boolean);
    if (
      await action.run(() =>
        call('PATCH', '/v1/account', { fraud_analysis_mandatory: mandatory, allowed_hosts: allowed }),
      )
    ) {
      setSaved(true);
      props.onSaved();
    }
  };
  return (
    <form onSubmit={submit} class="stack card" aria-labelledby="checkout">
      <h2 id="checkout">Checkout settings</h2>
      <label class="check">
        <input
          type="checkbox"
          checked={mandatory}
          disabled={!props.canChange}
          onChange={(e) => setMandatory(e.currentTarget.checked)}
        />
        Fraud analysis mandatory (charges without a fraud session are refused)
      </label>
      <label>
        Allowed hosts, one per line (empty: any host may use your public key)
        <textarea
          rows={4}
          value={hosts}
          disabled={!props.canChange}
          onInput={(e) => setHosts(inputValue(e))}
        />
      </label>
      <FieldErrors error={action.error} />
      {saved && <Notice kind="success">Settings saved.</Notice>}
      {props.canChange && (
        <button type="submit" class="primary" disabled={action.busy}>
          Save settings
        </button>
      )}
    </form>
  );
}

function RiskForm(props: { risk: RiskSettings; canChange: boolean; onSaved: () => void }) {
  const [review, setReview] = useState(String(props.risk.review_threshold));
  const [decline, setDecline] = useState(String(props.risk.decline_threshold));
  const [saved, setSaved] = useState(false);
  const action = useAction();
  const save = async (body: unknown) => {
    setSaved(false);
    if (await action.run(() => call('PATCH', '/v1/risk/settings', body))) {
      setSaved(true);
      props.onSaved();
    }
  };
  return (
    <form
      class="stack card"
      aria-labelledby="risk-title"
      onSubmit={(event) => {
        event.preventDefault();
        save({ review_threshold: Number(review), decline_threshold: Number(decline) });
      }}
    >
      <h2 id="risk-title">Risk thresholds</h2>
      <p>
        A charge whose score reaches the review threshold is flagged for review; at the decline threshold it
        fails.
        {props.risk.custom ? ' These are your own.' : ' These are the platform defaults.'}
      </p>
      <div class="inline-form">
        <label>
          Review at
          <input
            type="number"
            min={1}
            max={100}
            value={review}
            disabled={!props.canChange}
            onInput={(e) => setReview(inputValue(e))}
          />
        </label>
        <label>
          Decline at
          <input
            type="number"
            min={1}
            max={100}
            value={decline}
            disabled={!props.canChange}
            onInput={(e) => setDecline(inputValue(e))}
          />
        </label>
      </div>
      <details>
        <summary>Points per reason code</summary>
        <ul>
          {Object.entries(props.risk.weights).map(([code, points]) => (
            <li key={code}>
              {code}: {points}
            </li>
          ))}
        </ul>
      </details>
      <FieldErrors error={action.error} />
      {saved && <Notice kind="success">Thresholds saved.</Notice>}
      {props.canChange && (
        <div class="actions">
          <button type="submit" class="primary" disabled={action.busy}>
            Save thresholds
          </button>
          {props.risk.custom && (
            <button type="button" onClick={() => save({ review_threshold: null, decline_threshold: null })}>
              Restore defaults
            </button>
          )}
        </div>
      )}
    </form>
  );
}

export function DevelopersPage(props: { user: SessionUser }) {
  const account = useLoad(() => get<Account>('/v1/account'), []);
  const risk = useLoad(() => get<RiskSettings>('/v1/risk/settings'), []);
  const canChange = props.user.role !== 'viewer';
  return (
    <Page title="Developers">
      <KeysSection user={props.user} />
      <Show loaded={account}>
        {({ data }) => (
          <>
            <p>
              Merchant id <code>{data.id}</code>
            </p>
            <AccountForm account={data} canChange={canChange} onSaved={account.reload} />
          </>
        )}
      </Show>
      <Show loaded={risk}>
        {({ data }) => <RiskForm risk={data} canChange={canChange} onSaved={risk.reload} />}
      </Show>
    </Page>
  );
}
