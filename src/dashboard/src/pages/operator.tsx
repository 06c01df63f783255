import { useId, useState } from 'preact/hooks';
import { call, get, query } from '../api.js';
import { formatTime, t } from '../i18n/index.js';
import {
  Confirm,
  EMPTY_LIST,
  FieldErrors,
  inputValue,
  Link,
  ListFilters,
  type ListState,
  Notice,
  Page,
  Pager,
  Show,
  Table,
  useAction,
  useLoad,
} from '../ui.js';
import type { ActorNames, SubmerchantDetail, SubmerchantDocument } from './submerchant-view.js';
import { documentType, SubmerchantList, SubmerchantView } from './submerchant-view.js';

/** How long a submerchant has waited: minutes, then hours, then days. */
export function formatWait(fromIso: string, now = Date.now()): string {
  const minutes = Math.max(0, Math.floor((now - Date.parse(fromIso)) / 60_000));
  if (minutes < 60) return t.operator.wait.minutes(minutes);
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return t.operator.wait.hours(hours, minutes % 60);
  return t.operator.wait.days(Math.floor(hours / 24));
}

interface Waiting {
  id: string;
  trade_name: string;
  tax_id: string;
  submitted_at: string;
  merchant_name: string;
}

export function ReviewQueuePage() {
  const [page, setPage] = useState(1);
  const queue = useLoad(() => get<Waiting[]>(`/operator/review-queue${query({ page })}`), [page]);
  return (
    <Page title={t.operator.queueTitle}>
      <p>{t.operator.queueIntro}</p>
      <Show loaded={queue}>
        {(answer) =>
          answer.data.length === 0 ? (
            <p>{t.operator.queueEmpty}</p>
          ) : (
            <>
              <Table
                caption={t.operator.queueTitle}
                head={[
                  t.operator.queueHead.submerchant,
                  t.operator.queueHead.merchant,
                  t.operator.queueHead.taxId,
                  t.operator.queueHead.submitted,
                  t.operator.queueHead.waiting,
                ]}
              >
                {answer.data.map((item) => (
                  <tr key={item.id}>
                    <td>
                      <Link href={`/review/${item.id}`}>{item.trade_name}</Link>
                    </td>
                    <td>{item.merchant_name}</td>
                    <td>{item.tax_id}</td>
                    <td>{formatTime(item.submitted_at)}</td>
                    <td>{formatWait(item.submitted_at)}</td>
                  </tr>
                ))}
              </Table>
              <Pager pagination={answer.pagination} onPage={setPage} />
            </>
          )
        }
      </Show>
    </Page>
  );
}

/** Every merchant's submerchants, to open any of them (to block one that is active, say). */
export function OperatorSubmerchantsPage() {
  return (
    <Page title={t.submerchants.title}>
      <p>{t.operator.submerchantsIntro}</p>
      <SubmerchantList source="/v1/operator/submerchants" href={(id) => `/review/${id}`} />
    </Page>
  );
}

/** A decision that needs a reason (reject a document or the submerchant): a dialog with a required text. */
export function ReasonDialog(props: {
  title: string | null;
  onSubmit: (reason: string) => void;
  onCancel: () => void;
  /** Reject unless told. */
  confirmLabel?: string;
}) {
  const [reason, setReason] = useState('');
  // Set when the decision was confirmed without a reason: the dialog stays open and says what is missing.
  const [missing, setMissing] = useState(false);
  const errorId = useId();
  const reset = () => {
    setReason('');
    setMissing(false);
  };
  return (
    <Confirm
      open={props.title !== null}
      title={props.title ?? ''}
      confirmLabel={props.confirmLabel ?? t.operator.reject}
      danger
      onCancel={() => {
        reset();
        props.onCancel();
      }}
      onConfirm={() => {
        if (!reason.trim()) {
          setMissing(true);
          return;
        }
        props.onSubmit(reason.trim());
        reset();
      }}
    >
      <label class="stack">
        {t.operator.reason}
        <textarea
          required
          rows={3}
          value={reason}
          aria-invalid={missing}
          aria-describedby={missing ? errorId : undefined}
          onInput={(e) => {
            setReason(inputValue(e));
            setMissing(false);
          }}
        />
      </label>
      {missing && (
        <span id={errorId} class="field-error">
          {t.operator.reasonRequired}
        </span>
      )}
    </Confirm>
  );
}

type Rejecting =
  | { kind: 'document'; document: SubmerchantDocument }
  | { kind: 'submerchant' }
  | { kind: 'block' }
  | null;

export function ReviewPage(props: { id: string }) {
  const base = `/v1/operator/submerchants/${props.id}`;
  const [names, setNames] = useState<ActorNames>({});
  const detail = useLoad(async () => {
    const answer = await get<SubmerchantDetail>(base);
    const ids = [...answer.data.status_history, ...answer.data.documents.flatMap((doc) => doc.status_history)]
      .filter((entry) => entry.actor === 'operator')
      .map((entry) => entry.actor_id);
    if (ids.length > 0) {
      const known = await get<ActorNames>(`/users/names${query({ ids: [...new Set(ids)].join(',') })}`);
      setNames(known.data);
    }
    return answer;
  }, [props.id]);
  const [rejecting, setRejecting] = useState<Rejecting>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const action = useAction();
  const decide = async (path: string, done: string, body?: unknown) => {
    setNotice(null);
    await action.run(async () => {
      await call('POST', `${base}${path}`, body);
      setNotice(done);
    });
    // Refused or not, the page then shows the submerchant as it is now: a decision refused as not allowed in
    // its current state (another tab blocked it meanwhile) shows that state beside the error.
    detail.reload();
  };
  const documentActions = (doc: SubmerchantDocument) => (
    <div class="actions compact">
      {doc.status === 'pending' && (
        <button
          type="button"
          disabled={action.busy}
          onClick={() =>
            decide(`/documents/${doc.id}/approve`, t.operator.documentApproved(documentType(doc.type)))
          }
          aria-label={t.operator.approveDocument(documentType(doc.type), doc.id)}
        >
          {t.operator.approve}
        </button>
      )}
      {(doc.status === 'pending' || doc.status === 'approved') && (
        <>
          <button
            type="button"
            disabled={action.busy}
            onClick={() => setRejecting({ kind: 'document', document: doc })}
            aria-label={t.operator.rejectDocument(documentType(doc.type), doc.id)}
          >
            {t.operator.reject}
          </button>
          <button
            type="button"
            disabled={action.busy}
            onClick={() =>
              decide(`/documents/${doc.id}/expire`, t.operator.documentExpired(documentType(doc.type)))
            }
            aria-label={t.operator.expireDocument(documentType(doc.type), doc.id)}
          >
            {t.operator.expire}
          </button>
        </>
      )}
    </div>
  );
  return (
    <Show loaded={detail}>
      {({ data }) => (
        <Page
          title={t.operator.reviewTitle(data.trade_name)}
          actions={
            <>
              {data.blocked ? (
                <button
                  type="button"
                  disabled={action.busy}
                  onClick={() => decide('/unblock', t.operator.submerchantUnblocked)}
                >
                  {t.operator.unblock}
                </button>
              ) : (
                <button
                  type="button"
                  class="danger"
                  disabled={action.busy}
                  onClick={() => setRejecting({ kind: 'block' })}
                >
                  {t.operator.block}
                </button>
              )}
              {data.status === 'pending_review' && (
                <>
                  <button
                    type="button"
                    class="primary"
                    disabled={action.busy}
                    onClick={() => decide('/approve', t.operator.approved)}
                  >
                    {t.operator.approveSubmerchant}
                  </button>
                  <button
                    type="button"
                    class="danger"
                    disabled={action.busy}
                    onClick={() => setRejecting({ kind: 'submerchant' })}
                  >
                    {t.operator.rejectSubmerchant}
                  </button>
                </>
              )}
            </>
          }
        >
          <p>
            <Link href="/">{t.operator.backToQueue}</Link>
          </p>
          {notice && <Notice kind="success">{notice}</Notice>}
          <FieldErrors error={action.error} />
          {data.blocked_at && (
            <Notice kind="warning">
              {t.operator.blockedSince(formatTime(data.blocked_at), data.block_reason ?? '')}
            </Notice>
          )}
          <p class="muted">{t.operator.rejectionAdvice}</p>
          <SubmerchantView detail={data} names={names} documentActions={documentActions} />
          <ReasonDialog
            title={
              rejecting === null
                ? null
                : rejecting.kind === 'block'
                  ? t.operator.blockTitle
                  : rejecting.kind === 'submerchant'
                    ? t.operator.rejectSubmerchantTitle
                    : t.operator.rejectDocumentTitle(documentType(rejecting.document.type))
            }
            {...(rejecting?.kind === 'block' && { confirmLabel: t.operator.block })}
            onCancel={() => setRejecting(null)}
            onSubmit={(reason) => {
              const target = rejecting;
              setRejecting(null);
              if (target?.kind === 'document') {
                decide(`/documents/${target.document.id}/reject`, t.operator.documentRejected, { reason });
              } else if (target?.kind === 'block') {
                decide('/block', t.operator.submerchantBlocked, { reason });
              } else {
                decide('/reject', t.operator.submerchantRejected, { reason });
              }
            }}
          />
        </Page>
      )}
    </Show>
  );
}

interface Merchant {
  id: string;
  name: string;
  fraud_analysis_mandatory: boolean;
  rate_limits: { transactions: number; queries: number; default: number };
  created_at: string;
}

const CATEGORIES = ['transactions', 'queries', 'default'] as const;

function RateLimitsForm(props: { merchant: Merchant; onSaved: () => void }) {
  const [limits, setLimits] = useState<Record<string, string>>(
    Object.fromEntries(
      CATEGORIES.map((category) => [category, String(props.merchant.rate_limits[category])]),
    ),
  );
  const action = useAction();
  const submit = async (event: Event) => {
    event.preventDefault();
    const rateLimits = Object.fromEntries(
      CATEGORIES.map((category) => [category, limits[category] ? Number(limits[category]) : null]),
    );
    if (
      await action.run(() =>
        call('PATCH', `/v1/operator/merchants/${props.merchant.id}`, { rate_limits: rateLimits }),
      )
    ) {
      props.onSaved();
    }
  };
  return (
    <form onSubmit={submit} class="inline-form">
      {CATEGORIES.map((category) => (
        <label key={category}>
          {t.operator.categories[category]}
          <input
            type="number"
            min={1}
            max={1000000}
            value={limits[category]}
            onInput={(e) => setLimits({ ...limits, [category]: inputValue(e) })}
          />
        </label>
      ))}
      <button type="submit" disabled={action.busy}>
        {t.operator.saveLimits}
      </button>
      <FieldErrors error={action.error} />
    </form>
  );
}

export function MerchantsPage() {
  const [list, setList] = useState<ListState>(EMPTY_LIST);
  const [notice, setNotice] = useState<string | null>(null);
  const merchants = useLoad(() => get<Merchant[]>(`/v1/operator/merchants${query({ ...list })}`), [list]);
  return (
    <Page title={t.operator.merchantsTitle}>
      {notice && <Notice kind="success">{notice}</Notice>}
      <ListFilters statuses={[]} state={list} onChange={setList} />
      <Show loaded={merchants}>
        {(answer) => (
          <>
            <Table
              caption={t.operator.merchantsTitle}
              head={[
                t.operator.merchantsHead.merchant,
                t.operator.merchantsHead.created,
                t.operator.merchantsHead.limits,
              ]}
            >
              {answer.data.map((merchant) => (
                <tr key={merchant.id}>
                  <td>
                    {merchant.name}
                    <br />
                    <small class="muted">{merchant.id}</small>
                    <br />
                    <Link href={`/merchants/${merchant.id}/pricing`}>
                      {t.operator.pricingOf(merchant.name)}
                    </Link>
                  </td>
                  <td>{formatTime(merchant.created_at)}</td>
                  <td>
                    <RateLimitsForm
                      merchant={merchant}
                      onSaved={() => {
                        setNotice(t.operator.limitsSaved(merchant.name));
                        merchants.reload();
                      }}
                    />
                  </td>
                </tr>
              ))}
            </Table>
            <Pager pagination={answer.pagination} onPage={(page) => setList({ ...list, page })} />
          </>
        )}
      </Show>
    </Page>
  );
}
