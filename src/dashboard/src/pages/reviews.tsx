import { useEffect, useState } from 'preact/hooks';
import { call, get, query } from '../api.js';
import { formatMoney, formatTime, reasonText, t } from '../i18n/index.js';
import type { SessionUser } from '../main.js';
import {
  Badge,
  type InputEvent,
  inputValue,
  Link,
  Notice,
  Page,
  PagedTable,
  Show,
  useAction,
  useLoad,
} from '../ui.js';
import { type Activity, type Charge, SessionEvidence } from './charges.js';
import { formatWait } from './queue.js';

type QueuedCharge = Charge & { merchant_id: string; merchant_name: string };
type Order = 'oldest' | 'largest';

function OrderChoice(props: { order: Order; onChange: (order: Order) => void }) {
  return (
    <label>
      {t.reviews.order}{' '}
      <select
        value={props.order}
        onChange={(event: InputEvent) => props.onChange(inputValue(event) as Order)}
      >
        <option value="oldest">{t.reviews.oldestFirst}</option>
        <option value="largest">{t.reviews.largestFirst}</option>
      </select>
    </label>
  );
}

/** The columns of a held charge, the same in the merchant's queue and the operator's view. */
const queuedHead = () => [
  t.reviews.head.amount,
  t.reviews.head.risk,
  t.reviews.head.customer,
  t.reviews.head.waiting,
  t.reviews.head.closes,
];

/** A held charge's cells; its amount links to the charge's page where the reader has one (the merchant). */
function QueuedCells(props: { charge: QueuedCharge; linked: boolean }) {
  const { charge } = props;
  const amount = formatMoney(charge.amount);
  return (
    <>
      <td>{props.linked ? <Link href={`/charges/${charge.id}`}>{amount}</Link> : amount}</td>
      <td>
        <Badge value={charge.fraud_analysis.status} /> {charge.fraud_analysis.score}
      </td>
      <td>{charge.customer.name}</td>
      <td>{formatWait(charge.review?.opened_at ?? charge.created_at)}</td>
      <td>{formatTime(charge.review?.expires_at ?? null)}</td>
    </>
  );
}

/** The selected charge's evidence (as on its page) and the decision form. */
function ReviewPanel(props: {
  charge: QueuedCharge;
  canDecide: boolean;
  onDecided: (message: string) => void;
}) {
  const { charge } = props;
  const activity = useLoad(() => get<Activity>(`/charges/${charge.id}/activity`), [charge.id]);
  const [note, setNote] = useState('');
  const decision = useAction();
  const decide = (choice: 'approve' | 'reject') =>
    decision.run(async () => {
      await call('POST', `/v1/charges/${charge.id}/review`, {
        decision: choice,
        ...(note.trim() && { note }),
      });
      setNote('');
      props.onDecided(
        t.reviews.decided(formatMoney(charge.amount), charge.customer.name, choice === 'approve'),
      );
    });
  // a / r decide, unless the note is being typed.
  useEffect(() => {
    if (!props.canDecide) return;
    const onKey = (event: KeyboardEvent) => {
      const target = event.target as HTMLElement | null;
      if (target && ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName)) return;
      if (event.ctrlKey || event.metaKey || event.altKey) return;
      if (event.key === 'a') decide('approve');
      if (event.key === 'r') decide('reject');
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  });
  return (
    <section aria-labelledby="selected" class="review-panel">
      <h2 id="selected">
        {formatMoney(charge.amount)} · {charge.customer.name} · <Badge value={charge.fraud_analysis.status} />{' '}
        {t.reviews.score(charge.fraud_analysis.score)}
      </h2>
      <p>
        {charge.customer.email} · {charge.customer.document} ·{' '}
        {charge.card ? `${charge.card.brand} •••• ${charge.card.last4}` : charge.payment_method} ·{' '}
        {t.reviews.waitingCloses(
          formatWait(charge.review?.opened_at ?? charge.created_at),
          formatTime(charge.review?.expires_at ?? null),
        )}{' '}
        · <Link href={`/charges/${charge.id}`}>{t.reviews.chargePage}</Link>
      </p>
      {decision.error && <Notice kind="error">{decision.error.message}</Notice>}
      <Show loaded={activity}>
        {({ data }) => (
          <>
            {data.reasons.length === 0 ? (
              <p>{t.reviews.noReasons}</p>
            ) : (
              <ul class="reasons">
                {data.reasons.map((reason) => (
                  <li key={reason.code}>
                    <strong>{reason.code}</strong>: {reasonText(reason.code, reason.description)}
                  </li>
                ))}
              </ul>
            )}
            <SessionEvidence session={data.fraud_session} />
          </>
        )}
      </Show>
      {props.canDecide && (
        <form
          onSubmit={(event) => {
            event.preventDefault();
          }}
        >
          <label>
            {t.reviews.note}
            <textarea
              name="note"
              maxLength={1000}
              value={note}
              onInput={(event: InputEvent) => setNote(inputValue(event))}
            />
          </label>
          <div class="actions">
            <button type="button" onClick={() => decide('approve')} disabled={decision.busy}>
              {t.reviews.approve}
            </button>
            <button type="button" class="danger" onClick={() => decide('reject')} disabled={decision.busy}>
              {t.reviews.reject}
            </button>
          </div>
        </form>
      )}
    </section>
  );
}

/** The merchant's queue: j / k move through it, a / r decide the selected charge. */
export function ReviewsPage(props: { user: SessionUser }) {
  const [order, setOrder] = useState<Order>('oldest');
  const [page, setPage] = useState(1);
  const [selected, setSelected] = useState(0);
  const [notice, setNotice] = useState<string | null>(null);
  const queue = useLoad(() => get<QueuedCharge[]>(`/charge-reviews${query({ order, page })}`), [order, page]);
  const charges = queue.answer?.data ?? [];
  const current = charges[Math.min(selected, charges.length - 1)];
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const target = event.target as HTMLElement | null;
      if (target && ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName)) return;
      if (event.key === 'j') setSelected((index) => Math.min(index + 1, Math.max(charges.length - 1, 0)));
      if (event.key === 'k') setSelected((index) => Math.max(index - 1, 0));
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [charges.length]);
  return (
    <Page
      title={t.reviews.title}
      actions={
        <OrderChoice
          order={order}
          onChange={(next) => {
            setOrder(next);
            setPage(1);
          }}
        />
      }
    >
      <p class="hint">{t.reviews.hint}</p>
      {notice && <Notice kind="success">{notice}</Notice>}
      <PagedTable
        loaded={queue}
        caption={t.reviews.caption}
        head={queuedHead()}
        empty={t.reviews.empty}
        onPage={setPage}
        row={(charge) => (
          <tr
            key={charge.id}
            aria-selected={charge.id === current?.id}
            class={charge.id === current?.id ? 'selected' : undefined}
            onClick={() => setSelected(charges.indexOf(charge))}
          >
            <QueuedCells charge={charge} linked={true} />
          </tr>
        )}
      />
      {current && (
        <ReviewPanel
          key={current.id}
          charge={current}
          canDecide={props.user.role !== 'viewer'}
          onDecided={(message) => {
            setNotice(message);
            queue.reload();
          }}
        />
      )}
    </Page>
  );
}

/** Every merchant's held charges, for the operator to watch. */
export function OperatorChargeReviewsPage() {
  const [order, setOrder] = useState<Order>('oldest');
  const [page, setPage] = useState(1);
  const queue = useLoad(
    () => get<QueuedCharge[]>(`/operator/charge-reviews${query({ order, page })}`),
    [order, page],
  );
  return (
    <Page
      title={t.reviews.operatorTitle}
      actions={
        <OrderChoice
          order={order}
          onChange={(next) => {
            setOrder(next);
            setPage(1);
          }}
        />
      }
    >
      <PagedTable
        loaded={queue}
        caption={t.reviews.operatorCaption}
        head={[t.reviews.head.merchant, ...queuedHead()]}
        empty={t.reviews.operatorEmpty}
        onPage={setPage}
        row={(charge) => (
          <tr key={charge.id}>
            <td>{charge.merchant_name}</td>
            <QueuedCells charge={charge} linked={false} />
          </tr>
        )}
      />
    </Page>
  );
}
