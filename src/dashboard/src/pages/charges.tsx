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

interface Charge {
  id: string;
  amount: number;
  status: 'captured' | 'failed' | 'refunded';
  installments: number;
  failure_code: string | null;
  failure_message: string | null;
  customer: { name: string; email: string; document: string };
  card: { brand: string; last4: string; exp_month: number; exp_year: number };
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
  value === null || value === undefined ? t.common.unknown : value ? t.common.yes : t.common.no;

export function ChargesPage() {
  const [list, setList] = useState<ListState>(EMPTY_LIST);
  const charges = useLoad(() => get<Charge[]>(`/v1/charges${query({ ...list })}`), [list]);
  return (
    <Page title={t.charges.title}>
      <ListFilters statuses={['captured', 'failed', 'refunded']} state={list} onChange={setList} />
      <PagedTable
        loaded={charges}
        caption={t.charges.title}
        head={[
          t.charges.head.amount,
          t.charges.head.status,
          t.charges.head.risk,
          t.charges.head.customer,
          t.charges.head.card,
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
            <td>
              {charge.card.brand} •••• {charge.card.last4}
            </td>
            <td>{formatTime(charge.created_at)}</td>
          </tr>
        )}
      />
    </Page>
  );
}

function SessionEvidence(props: { session: FraudSession | null }) {
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
              [
                t.charges.head.card,
                t.charges.cardExpires(
                  `${data.card.brand} •••• ${data.card.last4}`,
                  data.card.exp_month,
                  data.card.exp_year,
                ),
              ],
              [
                t.charges.head.customer,
                `${data.customer.name} · ${data.customer.email} · ${data.customer.document}`,
              ],
              [t.charges.head.created, formatTime(data.created_at)],
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
