import { useState } from 'preact/hooks';
import { call, get, query } from '../api.js';
import { area, formatTime, t } from '../i18n/index.js';
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
import { formatWait, ReasonDialog } from './queue.js';
import type { ActorNames, SubmerchantDetail, SubmerchantDocument } from './submerchant-view.js';
import { documentType, SubmerchantList, SubmerchantView } from './submerchant-view.js';

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
    <Page title={area.operator.queueTitle}>
      <p>{area.operator.queueIntro}</p>
      <Show loaded={queue}>
        {(answer) =>
          answer.data.length === 0 ? (
            <p>{area.operator.queueEmpty}</p>
          ) : (
            <>
              <Table
                caption={area.operator.queueTitle}
                head={[
                  area.operator.queueHead.submerchant,
                  area.operator.queueHead.merchant,
                  area.operator.queueHead.taxId,
                  area.operator.queueHead.submitted,
                  area.operator.queueHead.waiting,
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
      <p>{area.operator.submerchantsIntro}</p>
      <SubmerchantList source="/v1/operator/submerchants" href={(id) => `/review/${id}`} />
    </Page>
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
  // Unblocking moves the seller's held money back to waiting funds: asked for once more, as blocking is.
  const [unblocking, setUnblocking] = useState(false);
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
            decide(`/documents/${doc.id}/approve`, area.operator.documentApproved(documentType(doc.type)))
          }
          aria-label={area.operator.approveDocument(documentType(doc.type), doc.id)}
        >
          {area.operator.approve}
        </button>
      )}
      {(doc.status === 'pending' || doc.status === 'approved') && (
        <>
          <button
            type="button"
            disabled={action.busy}
            onClick={() => setRejecting({ kind: 'document', document: doc })}
            aria-label={area.operator.rejectDocument(documentType(doc.type), doc.id)}
          >
            {t.queue.reject}
          </button>
          <button
            type="button"
            disabled={action.busy}
            onClick={() =>
              decide(`/documents/${doc.id}/expire`, area.operator.documentExpired(documentType(doc.type)))
            }
            aria-label={area.operator.expireDocument(documentType(doc.type), doc.id)}
          >
            {area.operator.expire}
          </button>
        </>
      )}
    </div>
  );
  return (
    <Show loaded={detail}>
      {({ data }) => (
        <Page
          title={area.operator.reviewTitle(data.trade_name)}
          actions={
            <>
              {data.blocked ? (
                <button type="button" disabled={action.busy} onClick={() => setUnblocking(true)}>
                  {area.operator.unblock}
                </button>
              ) : (
                <button
                  type="button"
                  class="danger"
                  disabled={action.busy}
                  onClick={() => setRejecting({ kind: 'block' })}
                >
                  {area.operator.block}
                </button>
              )}
              {data.status === 'pending_review' && (
                <>
                  <button
                    type="button"
                    class="primary"
                    disabled={action.busy}
                    onClick={() => decide('/approve', area.operator.approved)}
                  >
                    {area.operator.approveSubmerchant}
                  </button>
                  <button
                    type="button"
                    class="danger"
                    disabled={action.busy}
                    onClick={() => setRejecting({ kind: 'submerchant' })}
                  >
                    {area.operator.rejectSubmerchant}
                  </button>
                </>
              )}
            </>
          }
        >
          <p>
            <Link href="/">{area.operator.backToQueue}</Link>
          </p>
          {notice && <Notice kind="success">{notice}</Notice>}
          <FieldErrors error={action.error} />
          {data.blocked_at && (
            <Notice kind="warning">
              {area.operator.blockedSince(formatTime(data.blocked_at), data.block_reason ?? '')}
            </Notice>
          )}
          <p class="muted">{area.operator.rejectionAdvice}</p>
          <SubmerchantView detail={data} names={names} documentActions={documentActions} />
          <Confirm
            open={unblocking}
            title={area.operator.unblockTitle}
            confirmLabel={area.operator.unblock}
            onCancel={() => setUnblocking(false)}
            onConfirm={() => {
              setUnblocking(false);
              decide('/unblock', area.operator.submerchantUnblocked);
            }}
          />
          <ReasonDialog
            title={
              rejecting === null
                ? null
                : rejecting.kind === 'block'
                  ? area.operator.blockTitle
                  : rejecting.kind === 'submerchant'
                    ? area.operator.rejectSubmerchantTitle
                    : area.operator.rejectDocumentTitle(documentType(rejecting.document.type))
            }
            {...(rejecting?.kind === 'block' && { confirmLabel: area.operator.block })}
            onCancel={() => setRejecting(null)}
            onSubmit={(reason) => {
              const target = rejecting;
              setRejecting(null);
              if (target?.kind === 'document') {
                decide(`/documents/${target.document.id}/reject`, area.operator.documentRejected, { reason });
              } else if (target?.kind === 'block') {
                decide('/block', area.operator.submerchantBlocked, { reason });
              } else {
                decide('/reject', area.operator.submerchantRejected, { reason });
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
          {area.operator.categories[category]}
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
        {area.operator.saveLimits}
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
    <Page title={area.operator.merchantsTitle}>
      {notice && <Notice kind="success">{notice}</Notice>}
      <ListFilters statuses={[]} state={list} onChange={setList} />
      <Show loaded={merchants}>
        {(answer) => (
          <>
            <Table
              caption={area.operator.merchantsTitle}
              head={[
                area.operator.merchantsHead.merchant,
                area.operator.merchantsHead.created,
                area.operator.merchantsHead.limits,
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
                      {area.operator.pricingOf(merchant.name)}
                    </Link>
                  </td>
                  <td>{formatTime(merchant.created_at)}</td>
                  <td>
                    <RateLimitsForm
                      merchant={merchant}
                      onSaved={() => {
                        setNotice(area.operator.limitsSaved(merchant.name));
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
