import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { call, get, query } from '../api.js';
import { formatCount, formatMoney, formatTime, reasonText, t } from '../i18n/index.js';
import type { SessionUser } from '../main.js';
import {
  Badge,
  Confirm,
  EMPTY_LIST,
  Facts,
  Link,
  ListFilters,
  type ListState,
  Notice,
  Page,
  PagedTable,
  Show,
  Table,
  useAction,
  useLoad,
} from '../ui.js';
import { AttemptLog, type Delivery, RetryButton } from './webhooks.js';

export interface Charge {
  id: string;
  amount: number;
  status: 'captured' | 'failed' | 'refunded' | 'in_review' | 'canceled' | 'pending' | 'paid' | 'expired';
  payment_method: string;
  installments: number;
  failure_code: string | null;
  failure_message: string | null;
  customer: { name: string; email: string; document: string };
  card: { brand: string; last4: string; exp_month: number; exp_year: number } | null;
  pix: { txid: string; br_code: string; expires_at: string } | null;
  boleto: { digitable_line: string; due_date: string; our_number: string; url: string } | null;
  fraud_session_id: string | null;
  fraud_analysis: { status: string; score: number; reasons: string[] };
  review: null | {
    opened_at: string;
    expires_at: string;
    decision: 'approve' | 'reject' | null;
    closed_at: string | null;
    closed_by: 'user' | 'api_key' | 'timeout' | null;
    note: string | null;
  };
  canceled_at: string | null;
  refunded_at: string | null;
  created_at: string;
}

interface FraudSession {
  id: string;
  status: string;
  declared: {
    ip_address: string | null;
    type: string;
    host_name: string;
    cookies_accepted: boolean;
    user_agent: string;
  };
  observed: {
    ip_address: string;
    user_agent: string | null;
    origin: string | null;
    user_agent_type: string | null;
    declared_user_agent_type: string;
  };
  signals: null | {
    received_at: string;
    visitor_id: string | null;
    automation: boolean | null;
    ip_lookup: { status: string; ip_address?: string; source?: string; duration_ms: number };
    profiler: null | { provider: string; visitor_id: string; bot: { detected: boolean; kind?: string } };
    profiler_error: string | null;
  };
  created_at: string;
  consumed_at: string | null;
}

export interface Activity {
  reasons: { code: string; description: string }[];
  fraud_session: FraudSession | null;
  events: { id: string; type: string; created_at: string }[];
  deliveries: Delivery[];
}

const yesNo = (value: boolean | null | undefined) =>
  value === null || value === undefined ? t.common.unknown : value ? t.common.yes : t.common.no;

/** How the buyer pays: the card, or the PIX / boleto reference. */
function paymentSummary(charge: Charge): string {
  if (charge.card) return `${charge.card.brand} •••• ${charge.card.last4}`;
  if (charge.boleto) return t.charges.boletoDue(charge.boleto.due_date);
  return t.charges.methods[charge.payment_method] ?? charge.payment_method;
}

export function ChargesPage() {
  const [list, setList] = useState<ListState>(EMPTY_LIST);
  const [method, setMethod] = useState('');
  const charges = useLoad(
    () => get<Charge[]>(`/v1/charges${query({ ...list, payment_method: method })}`),
    [list, method],
  );
  return (
    <Page title={t.charges.title}>
      <ListFilters
        statuses={['captured', 'failed', 'refunded', 'in_review', 'canceled', 'pending', 'paid', 'expired']}
        state={list}
        onChange={setList}
      />
      <label class="filters">
        {t.charges.methodFilter}
        <select
          value={method}
          onChange={(event) => {
            setMethod((event.currentTarget as HTMLSelectElement).value);
            setList({ ...list, page: 1 });
          }}
        >
          <option value="">{t.charges.anyMethod}</option>
          {Object.entries(t.charges.methods).map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </select>
      </label>
      <PagedTable
        loaded={charges}
        caption={t.charges.title}
        head={[
          t.charges.head.amount,
          t.charges.head.status,
          t.charges.head.risk,
          t.charges.head.customer,
          t.charges.head.method,
          t.charges.head.payment,
          t.charges.head.created,
        ]}
        empty={t.charges.empty}
        onPage={(page) => setList({ ...list, page })}
        row={(charge) => (
          <tr key={charge.id}>
            <td>
              <Link href={`/charges/${charge.id}`}>{formatMoney(charge.amount)}</Link>
            </td>
            <td>
              <Badge value={charge.status} />
            </td>
            <td>
              <Badge value={charge.fraud_analysis.status} /> {charge.fraud_analysis.score}
            </td>
            <td>{charge.customer.name}</td>
            <td>{t.charges.methods[charge.payment_method] ?? charge.payment_method}</td>
            <td>{paymentSummary(charge)}</td>
            <td>{formatTime(charge.created_at)}</td>
          </tr>
        )}
      />
    </Page>
  );
}

export function SessionEvidence(props: { session: FraudSession | null }) {
  const session = props.session;
  if (!session) return <p>{t.charges.noSession}</p>;
  const signals = session.signals;
  return (
    <>
      <Table caption={t.charges.declaredObserved} head={['', t.charges.declared, t.charges.observed]}>
        <tr>
          <th scope="row">{t.charges.ipAddress}</th>
          <td>{session.declared.ip_address ?? '—'}</td>
          <td>
            {session.observed.ip_address}
            {signals?.ip_lookup.ip_address && t.charges.lookup(signals.ip_lookup.ip_address)}
          </td>
        </tr>
        <tr>
          <th scope="row">{t.charges.browser}</th>
          <td>{session.declared.type}</td>
          <td>{session.observed.user_agent_type ?? '—'}</td>
        </tr>
        <tr>
          <th scope="row">{t.charges.host}</th>
          <td>{session.declared.host_name}</td>
          <td>{session.observed.origin ?? '—'}</td>
        </tr>
        <tr>
          <th scope="row">{t.charges.cookies}</th>
          <td>{yesNo(session.declared.cookies_accepted)}</td>
          <td>—</td>
        </tr>
      </Table>
      <Facts
        items={[
          [t.charges.session, <code key="s">{session.id}</code>],
          [t.charges.sessionStatus, <Badge key="status" value={session.status} />],
          [t.charges.signalsReceived, signals ? formatTime(signals.received_at) : t.common.none],
          [t.charges.visitorId, signals?.visitor_id ?? '—'],
          [t.charges.automation, yesNo(signals?.automation)],
          [
            t.charges.profiler,
            signals?.profiler
              ? signals.profiler.bot.detected
                ? t.charges.botDetected(
                    signals.profiler.provider,
                    signals.profiler.bot.kind ?? t.common.unknown,
                  )
                : t.charges.botNotDetected(signals.profiler.provider)
              : (signals?.profiler_error ?? t.charges.noReport),
          ],
          [
            t.charges.ipLookup,
            signals
              ? t.charges.ipLookupIn(signals.ip_lookup.status, formatCount(signals.ip_lookup.duration_ms))
              : '—',
          ],
        ]}
      />
    </>
  );
}

/** A PIX or boleto charge's references, for support (what the buyer was given). */
function paymentFacts(charge: Charge): [string, ComponentChildren][] {
  if (charge.pix) {
    return [
      [t.charges.pixTxid, <code key="txid">{charge.pix.txid}</code>],
      [t.charges.pixExpires, formatTime(charge.pix.expires_at)],
      [t.charges.pixCode, <code key="br">{charge.pix.br_code}</code>],
    ];
  }
  if (charge.boleto) {
    return [
      [t.charges.boletoDueDate, charge.boleto.due_date],
      [t.charges.digitableLine, <code key="line">{charge.boleto.digitable_line}</code>],
      [t.charges.ourNumber, charge.boleto.our_number],
      [
        t.charges.printableBoleto,
        <a key="url" href={charge.boleto.url} target="_blank" rel="noreferrer">
          {t.charges.open}
        </a>,
      ],
    ];
  }
  return [];
}

/** A held charge's review: open until when, or how it ended and the reviewer's note. */
function reviewFacts(charge: Charge): [string, ComponentChildren][] {
  const { review } = charge;
  if (!review) return [];
  const outcome =
    review.decision === null || review.closed_by === null
      ? t.charges.reviewOpen(formatTime(review.expires_at))
      : t.charges.reviewClosed(review.decision === 'approve', review.closed_by, formatTime(review.closed_at));
  return review.note
    ? [
        [t.charges.review, outcome],
        [t.charges.reviewNote, review.note],
      ]
    : [[t.charges.review, outcome]];
}

export function ChargePage(props: { id: string; user: SessionUser }) {
  const charge = useLoad(() => get<Charge>(`/v1/charges/${props.id}`), [props.id]);
  const activity = useLoad(() => get<Activity>(`/charges/${props.id}/activity`), [props.id]);
  const [confirming, setConfirming] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  const refund = useAction();
  const reload = () => {
    charge.reload();
    activity.reload();
  };
  return (
    <Show loaded={charge}>
      {({ data }) => (
        <Page
          title={t.charges.chargeTitle(formatMoney(data.amount))}
          actions={
            props.user.role !== 'viewer' &&
            data.status === 'captured' && (
              <button type="button" class="danger" onClick={() => setConfirming(true)}>
                {t.charges.refund}
              </button>
            )
          }
        >
          <p>
            <Link href="/charges">{t.charges.allCharges}</Link>
          </p>
          {notice && <Notice kind="success">{notice}</Notice>}
          {refund.error && <Notice kind="error">{refund.error.message}</Notice>}
          <Confirm
            open={confirming}
            title={t.charges.refundTitle(formatMoney(data.amount))}
            confirmLabel={t.charges.refund}
            danger
            onCancel={() => setConfirming(false)}
            onConfirm={() => {
              setConfirming(false);
              refund.run(async () => {
                await call('POST', `/v1/charges/${data.id}/refund`);
                setNotice(t.charges.refunded);
                reload();
              });
            }}
          >
            <p>{t.charges.refundWarning(data.customer.name)}</p>
          </Confirm>
          <Facts
            items={[
              [t.charges.head.status, <Badge key="s" value={data.status} />],
              [t.charges.head.amount, t.charges.inInstallments(formatMoney(data.amount), data.installments)],
              [t.charges.head.method, t.charges.methods[data.payment_method] ?? data.payment_method],
              [
                t.charges.head.card,
                data.card &&
                  t.charges.cardExpires(
                    `${data.card.brand} •••• ${data.card.last4}`,
                    data.card.exp_month,
                    data.card.exp_year,
                  ),
              ],
              ...paymentFacts(data),
              [
                t.charges.head.customer,
                `${data.customer.name} · ${data.customer.email} · ${data.customer.document}`,
              ],
              [t.charges.head.created, formatTime(data.created_at)],
              ...reviewFacts(data),
              [t.charges.refundedAt, data.refunded_at ? formatTime(data.refunded_at) : null],
              [t.charges.failure, data.failure_code ? `${data.failure_code}: ${data.failure_message}` : null],
              [t.charges.id, <code key="id">{data.id}</code>],
            ]}
          />
          <section aria-labelledby="risk">
            <h2 id="risk">
              {t.charges.risk}: <Badge value={data.fraud_analysis.status} />{' '}
              {t.charges.scoreOf(data.fraud_analysis.score)}
            </h2>
            <Show loaded={activity}>
              {({ data: more }) => (
                <>
                  {more.reasons.length === 0 ? (
                    <p>{t.charges.noReasons}</p>
                  ) : (
                    <ul class="reasons">
                      {more.reasons.map((reason) => (
                        <li key={reason.code}>
                          <strong>{reason.code}</strong>: {reasonText(reason.code, reason.description)}
                        </li>
                      ))}
                    </ul>
                  )}
                  <h2>{t.charges.evidence}</h2>
                  <SessionEvidence session={more.fraud_session} />
                  <h2>{t.charges.eventsAndDeliveries}</h2>
                  {more.events.length === 0 ? (
                    <p>{t.charges.noEvents}</p>
                  ) : (
                    <ul>
                      {more.events.map((event) => (
                        <li key={event.id}>
                          {event.type} · {formatTime(event.created_at)}
                        </li>
                      ))}
                    </ul>
                  )}
                  {more.deliveries.length > 0 && (
                    <Table
                      caption={t.charges.chargeDeliveries}
                      head={[
                        t.charges.deliveryHead.event,
                        t.charges.deliveryHead.status,
                        t.charges.deliveryHead.attempts,
                        '',
                      ]}
                    >
                      {more.deliveries.map((delivery) => (
                        <tr key={delivery.id}>
                          <td>
                            <Link href={`/webhooks/${delivery.endpoint_id}`}>{delivery.event_type}</Link>
                          </td>
                          <td>
                            <Badge value={delivery.status} />
                          </td>
                          <td>
                            <AttemptLog delivery={delivery} />
                          </td>
                          <td>
                            {props.user.role !== 'viewer' && (
                              <RetryButton delivery={delivery} onDone={activity.reload} />
                            )}
                          </td>
                        </tr>
                      ))}
                    </Table>
                  )}
                </>
              )}
            </Show>
          </section>
        </Page>
      )}
    </Show>
  );
}
