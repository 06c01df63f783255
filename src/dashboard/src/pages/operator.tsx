import { useState } from 'preact/hooks';
import { call, get, query } from '../api.js';
import {
  Confirm,
  EMPTY_LIST,
  FieldErrors,
  formatTime,
  formatWait,
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
import { SubmerchantView } from './submerchant-view.js';

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
    <Page title="Review queue">
      <p>Submerchants waiting for review, the longest waiting first.</p>
      <Show loaded={queue}>
        {(answer) =>
          answer.data.length === 0 ? (
            <p>Nothing waits for review.</p>
          ) : (
            <>
              <Table
                caption="Review queue"
                head={['Submerchant', 'Merchant', 'Tax id', 'Submitted', 'Waiting']}
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

/** A decision that needs a reason (reject a document or the submerchant): a dialog with a required text. */
export function ReasonDialog(props: {
  title: string | null;
  onSubmit: (reason: string) => void;
  onCancel: () => void;
}) {
  const [reason, setReason] = useState('');
  return (
    <Confirm
      open={props.title !== null}
      title={props.title ?? ''}
      confirmLabel="Reject"
      danger
      onCancel={() => {
        setReason('');
        props.onCancel();
      }}
      onConfirm={() => {
        if (!reason.trim()) return;
        props.onSubmit(reason.trim());
        setReason('');
      }}
    >
      <label class="stack">
        Reason (the merchant sees it)
        <textarea required rows={3} value={reason} onInput={(e) => setReason(inputValue(e))} />
      </label>
    </Confirm>
  );
}

type Rejecting = { kind: 'document'; document: SubmerchantDocument } | { kind: 'submerchant' } | null;

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
  const decide = (path: string, done: string, body?: unknown) =>
    action.run(async () => {
      await call('POST', `${base}${path}`, body);
      setNotice(done);
      detail.reload();
    });
  const documentActions = (doc: SubmerchantDocument) => (
    <div class="actions compact">
      {doc.status === 'pending' && (
        <button
          type="button"
          disabled={action.busy}
          onClick={() => decide(`/documents/${doc.id}/approve`, `${doc.type} approved.`)}
          aria-label={`Approve ${doc.type.replaceAll('_', ' ')} ${doc.id}`}
        >
          Approve
        </button>
      )}
      {(doc.status === 'pending' || doc.status === 'approved') && (
        <>
          <button
            type="button"
            disabled={action.busy}
            onClick={() => setRejecting({ kind: 'document', document: doc })}
            aria-label={`Reject ${doc.type.replaceAll('_', ' ')} ${doc.id}`}
          >
            Reject
          </button>
          <button
            type="button"
            disabled={action.busy}
            onClick={() => decide(`/documents/${doc.id}/expire`, `${doc.type} marked expired.`)}
            aria-label={`Expire ${doc.type.replaceAll('_', ' ')} ${doc.id}`}
          >
            Expire
          </button>
        </>
      )}
    </div>
  );
  return (
    <Show loaded={detail}>
      {({ data }) => (
        <Page
          title={`Review: ${data.trade_name}`}
          actions={
            data.status === 'pending_review' && (
              <>
                <button
                  type="button"
                  class="primary"
                  disabled={action.busy}
                  onClick={() => decide('/approve', 'Submerchant approved: it is active.')}
                >
                  Approve submerchant
                </button>
                <button
                  type="button"
                  class="danger"
                  disabled={action.busy}
                  onClick={() => setRejecting({ kind: 'submerchant' })}
                >
                  Reject submerchant
                </button>
              </>
            )
          }
        >
          <p>
            <Link href="/">← Review queue</Link>
          </p>
          {notice && <Notice kind="success">{notice}</Notice>}
          <FieldErrors error={action.error} />
          <p class="muted">
            A rejection's reason tells the merchant what to fix; the merchant then requests resubmission,
            corrects the data and submits again.
          </p>
          <SubmerchantView detail={data} names={names} documentActions={documentActions} />
          <ReasonDialog
            title={
              rejecting === null
                ? null
                : rejecting.kind === 'submerchant'
                  ? 'Reject the submerchant?'
                  : `Reject ${rejecting.document.type.replaceAll('_', ' ')}?`
            }
            onCancel={() => setRejecting(null)}
            onSubmit={(reason) => {
              const target = rejecting;
              setRejecting(null);
              if (target?.kind === 'document') {
                decide(`/documents/${target.document.id}/reject`, 'Document rejected.', { reason });
              } else {
                decide('/reject', 'Submerchant rejected.', { reason });
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
          {category}
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
        Save limits
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
    <Page title="Merchants">
      {notice && <Notice kind="success">{notice}</Notice>}
      <ListFilters statuses={[]} state={list} onChange={setList} />
      <Show loaded={merchants}>
        {(answer) => (
          <>
            <Table caption="Merchants" head={['Merchant', 'Created', 'Requests per minute (empty: default)']}>
              {answer.data.map((merchant) => (
                <tr key={merchant.id}>
                  <td>
                    {merchant.name}
                    <br />
                    <small class="muted">{merchant.id}</small>
                  </td>
                  <td>{formatTime(merchant.created_at)}</td>
                  <td>
                    <RateLimitsForm
                      merchant={merchant}
                      onSaved={() => {
                        setNotice(`Rate limits of ${merchant.name} saved.`);
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
