import { useState } from 'preact/hooks';
import { call, get } from '../api.js';
import type { DeveloperMessages } from '../i18n/en/developers.js';
import { area, formatTime } from '../i18n/index.js';
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
    return <p>{w.publicKeyMissing}</p>;
  }
  return (
    <p>
      {w.publicKey} <code data-testid="public-key">{props.publicKey}</code>{' '}
      <CopyButton text={props.publicKey} label={w.copyPublicKey} />
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
      <h2 id="keys">{w.keys}</h2>
      <p>{w.keysIntro}</p>
      <Show loaded={publicKey}>{({ data }) => <PublicKey publicKey={data.public_key} />}</Show>
      {issued && (
        <Notice kind="warning">
          {w.newKey(w.keyKind[issued.type])} <code>{issued.key}</code>{' '}
          <CopyButton text={issued.key} label={w.copyNewKey(w.keyKind[issued.type])} />
          {issued.previous_key && (
            <>
              {' '}
              {w.oldKeyUntil(w.keyKind[issued.type])}{' '}
              <time dateTime={issued.previous_key.expires_at}>
                {formatTime(issued.previous_key.expires_at)}
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
            {w.rollSecret}
          </button>
          <button type="button" onClick={() => setRolling('public')}>
            {w.rollPublic}
          </button>
        </div>
      ) : (
        <p class="muted">{w.ownersOnly}</p>
      )}
      <Confirm
        open={rolling !== null}
        title={rolling ? w.rollTitle(w.keyKind[rolling]) : ''}
        confirmLabel={w.rollConfirm}
        danger
        onCancel={() => setRolling(null)}
        onConfirm={() => {
          const kind = rolling;
          setRolling(null);
          if (kind) roll(kind);
        }}
      >
        <p>{rolling === 'secret' ? w.rollSecretWarning : w.rollPublicWarning}</p>
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
      <h2 id="checkout">{w.checkout}</h2>
      <label class="check">
        <input
          type="checkbox"
          checked={mandatory}
          disabled={!props.canChange}
          onChange={(e) => setMandatory(e.currentTarget.checked)}
        />
        {w.mandatory}
      </label>
      <label>
        {w.allowedHosts}
        <textarea
          rows={4}
          value={hosts}
          disabled={!props.canChange}
          onInput={(e) => setHosts(inputValue(e))}
        />
      </label>
      <FieldErrors error={action.error} />
      {saved && <Notice kind="success">{w.settingsSaved}</Notice>}
      {props.canChange && (
        <button type="submit" class="primary" disabled={action.busy}>
          {w.saveSettings}
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
      <h2 id="risk-title">{w.thresholds}</h2>
      <p>
        {w.thresholdsIntro}
        {props.risk.custom ? w.ownThresholds : w.defaultThresholds}
      </p>
      <div class="inline-form">
        <label>
          {w.reviewAt}
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
          {w.declineAt}
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
        <summary>{w.pointsPerReason}</summary>
        <ul>
          {Object.entries(props.risk.weights).map(([code, points]) => (
            <li key={code}>
              {code}: {points}
            </li>
          ))}
        </ul>
      </details>
      <FieldErrors error={action.error} />
      {saved && <Notice kind="success">{w.thresholdsSaved}</Notice>}
      {props.canChange && (
        <div class="actions">
          <button type="submit" class="primary" disabled={action.busy}>
            {w.saveThresholds}
          </button>
          {props.risk.custom && (
            <button type="button" onClick={() => save({ review_threshold: null, decline_threshold: null })}>
              {w.restoreDefaults}
            </button>
          )}
        </div>
      )}
    </form>
  );
}

/** The words of the page being drawn, for its sections (set before they render, as `t` is by setLanguage). */
let w: DeveloperMessages;

// This area's words load with its page (docs/decisions/dashboard-message-catalogue.md).
export function DevelopersPage(props: { user: SessionUser }) {
  return <Developers user={props.user} words={area.developers} />;
}

function Developers(props: { user: SessionUser; words: DeveloperMessages }) {
  w = props.words;
  const account = useLoad(() => get<Account>('/v1/account'), []);
  const risk = useLoad(() => get<RiskSettings>('/v1/risk/settings'), []);
  const canChange = props.user.role !== 'viewer';
  return (
    <Page title={w.title}>
      <KeysSection user={props.user} />
      <Show loaded={account}>
        {({ data }) => (
          <>
            <p>
              {w.merchantId} <code>{data.id}</code>
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
