import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { call, get, query } from '../api.js';
import type { SessionUser } from '../main.js';
import {
  Badge,
  Confirm,
  EMPTY_LIST,
  Facts,
  formatMoney,
  formatTime,
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

interface Charge {
  id: string;
  amount: number;
  status: 'captured' | 'failed' | 'refunded' | 'pending' | 'paid' | 'expired';
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

interface Activity {
  reasons: { code: string; description: string }[];
  fraud_session: FraudSession | null;
  events: { id: string; type: string; created_at: string }[];
  deliveries: Delivery[];
}

const yesNo = (value: boolean | null | undefined) =>
  value === null || value === undefined ? 'unknown' : value ? 'yes' : 'no';

const METHODS: Record<string, string> = { credit_card: 'Card', pix: 'PIX', boleto: 'Boleto' };

/** How the buyer pays: the card, or the PIX / boleto reference. */
function paymentSummary(charge: Charge): string {
  if (charge.card) return `${charge.card.brand} •••• ${charge.card.last4}`;
  if (charge.boleto) return `Boleto due ${charge.boleto.due_date}`;
  return METHODS[charge.payment_method] ?? charge.payment_method;
}

export function ChargesPage() {
  const [list, setList] = useState<ListState>(EMPTY_LIST);
  const [method, setMethod] = useState('');
  const charges = useLoad(
    () => get<Charge[]>(`/v1/charges${query({ ...list, payment_method: method })}`),
    [list, method],
  );
  return (
    <Page title="Charges">
      <ListFilters
        statuses={['captured', 'failed', 'refunded', 'pending', 'paid', 'expired']}
        state={list}
        onChange={setList}
      />
      <label class="filters">
        Payment method
        <select
          value={method}
          onChange={(event) => {
            setMethod((event.currentTarget as HTMLSelectElement).value);
            setList({ ...list, page: 1 });
          }}
        >
          <option value="">Any</option>
          {Object.entries(METHODS).map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </select>
      </label>
      <PagedTable
        loaded={charges}
        caption="Charges"
        head={['Amount', 'Status', 'Risk', 'Customer', 'Method', 'Payment', 'Created']}
        empty="No charges match."
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
            <td>{METHODS[charge.payment_method] ?? charge.payment_method}</td>
            <td>{paymentSummary(charge)}</td>
            <td>{formatTime(charge.created_at)}</td>
          </tr>
        )}
      />
    </Page>
  );
}

function SessionEvidence(props: { session: FraudSession | null }) {
  const session = props.session;
  if (!session) return <p>This charge was made without a fraud session.</p>;
  const signals = session.signals;
  return (
    <>
      <Table
        caption="Declared by the browser and observed by the service"
        head={['', 'Declared', 'Observed']}
      >
        <tr>
          <th scope="row">IP address</th>
          <td>{session.declared.ip_address ?? '—'}</td>
          <td>
            {session.observed.ip_address}
            {signals?.ip_lookup.ip_address && ` (lookup: ${signals.ip_lookup.ip_address})`}
          </td>
        </tr>
        <tr>
          <th scope="row">Browser</th>
          <td>{session.declared.type}</td>
          <td>{session.observed.user_agent_type ?? '—'}</td>
        </tr>
        <tr>
          <th scope="row">Host</th>
          <td>{session.declared.host_name}</td>
          <td>{session.observed.origin ?? '—'}</td>
        </tr>
        <tr>
          <th scope="row">Cookies</th>
          <td>{yesNo(session.declared.cookies_accepted)}</td>
          <td>—</td>
        </tr>
      </Table>
      <Facts
        items={[
          ['Session', <code key="s">{session.id}</code>],
          ['Session status', session.status],
          ['Signals received', signals ? formatTime(signals.received_at) : 'none'],
          ['Visitor id', signals?.visitor_id ?? '—'],
          ['Automation detected', yesNo(signals?.automation)],
          [
            'Profiler',
            signals?.profiler
              ? `${signals.profiler.provider}, bot ${signals.profiler.bot.detected ? `detected (${signals.profiler.bot.kind ?? 'unknown'})` : 'not detected'}`
              : (signals?.profiler_error ?? 'no report'),
          ],
          ['IP lookup', signals ? `${signals.ip_lookup.status} in ${signals.ip_lookup.duration_ms} ms` : '—'],
        ]}
      />
    </>
  );
}

/** A PIX or boleto charge's references, for support (what the buyer was given). */
function paymentFacts(charge: Charge): [string, ComponentChildren][] {
  if (charge.pix) {
    return [
      ['PIX txid', <code key="txid">{charge.pix.txid}</code>],
      ['PIX expires', formatTime(charge.pix.expires_at)],
      ['PIX code', <code key="br">{charge.pix.br_code}</code>],
    ];
  }
  if (charge.boleto) {
    return [
      ['Boleto due', charge.boleto.due_date],
      ['Digitable line', <code key="line">{charge.boleto.digitable_line}</code>],
      ['Our number', charge.boleto.our_number],
      [
        'Printable boleto',
        <a key="url" href={charge.boleto.url} target="_blank" rel="noreferrer">
          Open
        </a>,
      ],
    ];
  }
  return [];
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
          title={`Charge ${formatMoney(data.amount)}`}
          actions={
            props.user.role !== 'viewer' &&
            data.status === 'captured' && (
              <button type="button" class="danger" onClick={() => setConfirming(true)}>
                Refund
              </button>
            )
          }
        >
          <p>
            <Link href="/charges">← All charges</Link>
          </p>
          {notice && <Notice kind="success">{notice}</Notice>}
          {refund.error && <Notice kind="error">{refund.error.message}</Notice>}
          <Confirm
            open={confirming}
            title={`Refund ${formatMoney(data.amount)}?`}
            confirmLabel="Refund"
            danger
            onCancel={() => setConfirming(false)}
            onConfirm={() => {
              setConfirming(false);
              refund.run(async () => {
                await call('POST', `/v1/charges/${data.id}/refund`);
                setNotice('Charge refunded.');
                reload();
              });
            }}
          >
            <p>The whole amount goes back to {data.customer.name}'s card. This cannot be undone.</p>
          </Confirm>
          <Facts
            items={[
              ['Status', <Badge key="s" value={data.status} />],
              ['Amount', `${formatMoney(data.amount)} in ${data.installments}×`],
              ['Method', METHODS[data.payment_method] ?? data.payment_method],
              [
                'Card',
                data.card &&
                  `${data.card.brand} •••• ${data.card.last4}, expires ${data.card.exp_month}/${data.card.exp_year}`,
              ],
              ...paymentFacts(data),
              ['Customer', `${data.customer.name} · ${data.customer.email} · ${data.customer.document}`],
              ['Created', formatTime(data.created_at)],
              ['Refunded', data.refunded_at ? formatTime(data.refunded_at) : null],
              ['Failure', data.failure_message],
              ['Id', <code key="id">{data.id}</code>],
            ]}
          />
          <section aria-labelledby="risk">
            <h2 id="risk">
              Risk: <Badge value={data.fraud_analysis.status} /> score {data.fraud_analysis.score} of 100
            </h2>
            <Show loaded={activity}>
              {({ data: more }) => (
                <>
                  {more.reasons.length === 0 ? (
                    <p>No risk reasons: every check passed.</p>
                  ) : (
                    <ul class="reasons">
                      {more.reasons.map((reason) => (
                        <li key={reason.code}>
                          <strong>{reason.code}</strong>: {reason.description}
                        </li>
                      ))}
                    </ul>
                  )}
                  <h2>Fraud session evidence</h2>
                  <SessionEvidence session={more.fraud_session} />
                  <h2>Events and webhook deliveries</h2>
                  {more.events.length === 0 ? (
                    <p>No events.</p>
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
                      caption="Webhook deliveries of this charge"
                      head={['Event', 'Status', 'Attempts', '']}
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
