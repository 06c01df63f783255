import { useState } from 'preact/hooks';
import { call, get } from '../api.js';
import { formatTime, t } from '../i18n/index.js';
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
    return <p>{t.developers.publicKeyMissing}</p>;
  }
  return (
    <p>
      {t.developers.publicKey} <code data-testid="public-key">{props.publicKey}</code>{' '}
      <CopyButton text={props.publicKey} label={t.developers.copyPublicKey} />
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
      <h2 id="keys">{t.developers.keys}</h2>
      <p>{t.developers.keysIntro}</p>
      <Show loaded={publicKey}>{({ data }) => <PublicKey publicKey={data.public_key} />}</Show>
      {issued && (
        <Notice kind="warning">
          {t.developers.newKey(t.developers.keyKind[issued.type])} <code>{issued.key}</code>{' '}
          <CopyButton text={issued.key} label={t.developers.copyNewKey(t.developers.keyKind[issued.type])} />
          {issued.previous_key && (
            <>
              {' '}
              {t.developers.oldKeyUntil(t.developers.keyKind[issued.type])}{' '}
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
            {t.developers.rollSecret}
          </button>
          <button type="button" onClick={() => setRolling('public')}>
            {t.developers.rollPublic}
          </button>
        </div>
      ) : (
        <p class="muted">{t.developers.ownersOnly}</p>
      )}
      <Confirm
        open={rolling !== null}
        title={rolling ? t.developers.rollTitle(t.developers.keyKind[rolling]) : ''}
        confirmLabel={t.developers.rollConfirm}
        danger
        onCancel={() => setRolling(null)}
        onConfirm={() => {
          const kind = rolling;
          setRolling(null);
          if (kind) roll(kind);
        }}
      >
        <p>{rolling === 'secret' ? t.developers.rollSecretWarning : t.developers.rollPublicWarning}</p>
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
      <h2 id="checkout">{t.developers.checkout}</h2>
      <label class="check">
        <input
          type="checkbox"
          checked={mandatory}
          disabled={!props.canChange}
          onChange={(e) => setMandatory(e.currentTarget.checked)}
        />
        {t.developers.mandatory}
      </label>
      <label>
        {t.developers.allowedHosts}
        <textarea
          rows={4}
          value={hosts}
          disabled={!props.canChange}
          onInput={(e) => setHosts(inputValue(e))}
        />
      </label>
      <FieldErrors error={action.error} />
      {saved && <Notice kind="success">{t.developers.settingsSaved}</Notice>}
      {props.canChange && (
        <button type="submit" class="primary" disabled={action.busy}>
          {t.developers.saveSettings}
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
      <h2 id="risk-title">{t.developers.thresholds}</h2>
      <p>
        {t.developers.thresholdsIntro}
        {props.risk.custom ? t.developers.ownThresholds : t.developers.defaultThresholds}
      </p>
      <div class="inline-form">
        <label>
          {t.developers.reviewAt}
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
          {t.developers.declineAt}
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
        <summary>{t.developers.pointsPerReason}</summary>
        <ul>
          {Object.entries(props.risk.weights).map(([code, points]) => (
            <li key={code}>
              {code}: {points}
            </li>
          ))}
        </ul>
      </details>
      <FieldErrors error={action.error} />
      {saved && <Notice kind="success">{t.developers.thresholdsSaved}</Notice>}
      {props.canChange && (
        <div class="actions">
          <button type="submit" class="primary" disabled={action.busy}>
            {t.developers.saveThresholds}
          </button>
          {props.risk.custom && (
            <button type="button" onClick={() => save({ review_threshold: null, decline_threshold: null })}>
              {t.developers.restoreDefaults}
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
    <Page title={t.developers.title}>
      <KeysSection user={props.user} />
      <Show loaded={account}>
        {({ data }) => (
          <>
            <p>
              {t.developers.merchantId} <code>{data.id}</code>
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
