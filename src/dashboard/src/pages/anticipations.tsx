import { useState } from 'preact/hooks';
import { call, get, query } from '../api.js';
import type { AnticipationMessages } from '../i18n/en/anticipations.js';
import { area, formatDay, formatMoney, formatRatio, formatTime } from '../i18n/index.js';
import {
  Badge,
  DateInput,
  EMPTY_LIST,
  Facts,
  FieldErrors,
  inputValue,
  ListFilters,
  type ListState,
  Notice,
  Page,
  PagedTable,
  Show,
  useAction,
  useLoad,
} from '../ui.js';
import { ReasonDialog } from './queue.js';

export const ANTICIPATION_STATUSES = ['pending', 'approved', 'paid', 'refused', 'canceled'] as const;
type Timeframe = 'start' | 'end';

interface Anticipation {
  id: string;
  status: string;
  payment_date: string;
  requested_amount: number;
  approved_amount: number;
  fee: number;
  net_amount: number;
  receivables_count: number;
  created_at: string;
  merchant_id?: string;
}

interface Limits {
  min: { amount: number; fee: number };
  max: { amount: number; fee: number };
  reason: keyof AnticipationMessages['limits']['reasons'] | null;
  monthly_rate: number;
  payment_date: string;
}

/** `1.500,00`, `1500,00` or `1500` reais as centavos; null when it is not an amount. */
export function parseReais(text: string): number | null {
  const cleaned = text
    .trim()
    .replace(/^R\$\s*/, '')
    .replaceAll('.', '')
    .replace(',', '.');
  if (!/^\d+(\.\d{1,2})?$/.test(cleaned)) return null;
  return Math.round(Number(cleaned) * 100);
}

/** The merchant's anticipations: limits, a simulation (dry run), the confirmation, and the list. */
// This area's words load with its page (docs/decisions/dashboard-message-catalogue.md).
export function AnticipationsPage() {
  return <Anticipate t={area.anticipations} />;
}

function Anticipate({ t }: { t: AnticipationMessages }) {
  const [timeframe, setTimeframe] = useState<Timeframe>('start');
  const [paymentDate, setPaymentDate] = useState('');
  const [amount, setAmount] = useState('');
  const [simulated, setSimulated] = useState<{ body: object; result: Anticipation; key: string } | null>(
    null,
  );
  const [notice, setNotice] = useState<string | null>(null);
  const [list, setList] = useState<ListState>(EMPTY_LIST);
  const limits = useLoad(
    () => get<Limits>(`/v1/anticipations/limits${query({ timeframe, payment_date: paymentDate })}`),
    [timeframe, paymentDate],
  );
  const anticipations = useLoad(() => get<Anticipation[]>(`/v1/anticipations${query({ ...list })}`), [list]);
  const action = useAction();
  const centavos = parseReais(amount);

  const simulate = () =>
    action.run(async () => {
      setNotice(null);
      const body = {
        requested_amount: centavos ?? 0,
        timeframe,
        payment_date: paymentDate || limits.answer?.data.payment_date,
      };
      const answer = await call<Anticipation>('POST', '/v1/anticipations', { ...body, dry_run: true });
      // One key per simulation confirmed: a double click or a retry never anticipates twice.
      setSimulated({ body, result: answer.data, key: crypto.randomUUID() });
    });
  const confirm = (current: NonNullable<typeof simulated>) =>
    action.run(async () => {
      const answer = await call<Anticipation>('POST', '/v1/anticipations', current.body, {
        'idempotency-key': current.key,
      });
      setSimulated(null);
      setAmount('');
      setNotice(t.created(formatMoney(answer.data.approved_amount)));
      limits.reload();
      anticipations.reload();
    });
  const cancel = (item: Anticipation) =>
    action.run(async () => {
      await call('POST', `/v1/anticipations/${item.id}/cancel`);
      setNotice(t.canceled);
      limits.reload();
      anticipations.reload();
    });

  return (
    <Page title={t.title}>
      <p>{t.intro}</p>
      {notice && <Notice kind="success">{notice}</Notice>}
      <FieldErrors error={action.error} />
      <section aria-labelledby="anticipation-limits">
        <h2 id="anticipation-limits">{t.limits.title}</h2>
        <Show loaded={limits}>
          {({ data }) =>
            data.reason ? (
              <Notice kind="warning">{t.limits.reasons[data.reason]}</Notice>
            ) : (
              <ul>
                <li>{t.limits.min(formatMoney(data.min.amount), formatMoney(data.min.fee))}</li>
                <li>{t.limits.max(formatMoney(data.max.amount), formatMoney(data.max.fee))}</li>
                <li>{t.limits.rate(formatRatio(data.monthly_rate / 10_000))}</li>
              </ul>
            )
          }
        </Show>
      </section>
      <form
        class="stack"
        onSubmit={(event) => {
          event.preventDefault();
          if (centavos !== null) simulate();
        }}
      >
        <label>
          {t.form.amount}
          <input
            type="text"
            inputMode="decimal"
            required
            value={amount}
            aria-invalid={amount !== '' && centavos === null}
            onInput={(event) => {
              setAmount(inputValue(event));
              setSimulated(null);
            }}
          />
        </label>
        {amount !== '' && centavos === null && <span class="field-error">{t.form.amountInvalid}</span>}
        <label>
          {t.form.timeframe}
          <select
            value={timeframe}
            onChange={(event) => {
              setTimeframe(inputValue(event) as Timeframe);
              setSimulated(null);
            }}
          >
            {(['start', 'end'] as const).map((value) => (
              <option key={value} value={value}>
                {t.form.timeframes[value]}
              </option>
            ))}
          </select>
        </label>
        <DateInput
          label={t.form.paymentDate}
          value={paymentDate || (limits.answer?.data.payment_date ?? '')}
          onChange={(day) => {
            setPaymentDate(day);
            setSimulated(null);
          }}
        />
        <div class="actions">
          <button type="submit" disabled={action.busy || centavos === null}>
            {t.form.simulate}
          </button>
        </div>
      </form>
      {simulated && (
        <section aria-labelledby="anticipation-simulation">
          <h2 id="anticipation-simulation">{t.simulation.title}</h2>
          <Facts
            items={[
              [t.simulation.approved, formatMoney(simulated.result.approved_amount)],
              [t.simulation.fee, formatMoney(simulated.result.fee)],
              [t.simulation.net, formatMoney(simulated.result.net_amount)],
              [t.simulation.receivables, simulated.result.receivables_count],
            ]}
          />
          <div class="actions">
            <button type="button" class="primary" disabled={action.busy} onClick={() => confirm(simulated)}>
              {t.form.confirm}
            </button>
          </div>
        </section>
      )}
      <ListFilters statuses={ANTICIPATION_STATUSES} state={list} onChange={setList} />
      <PagedTable
        loaded={anticipations}
        caption={t.caption}
        head={Object.values(t.head)}
        empty={t.empty}
        onPage={(page) => setList({ ...list, page })}
        row={(item) => (
          <tr key={item.id}>
            <td>{formatTime(item.created_at)}</td>
            <td>{formatDay(item.payment_date)}</td>
            <td>{formatMoney(item.approved_amount)}</td>
            <td>{formatMoney(item.fee)}</td>
            <td>{formatMoney(item.net_amount)}</td>
            <td>
              <Badge value={item.status} />
            </td>
            <td>
              {item.status === 'pending' && (
                <button
                  type="button"
                  disabled={action.busy}
                  aria-label={t.cancelLabel(formatMoney(item.approved_amount))}
                  onClick={() => cancel(item)}
                >
                  {t.cancel}
                </button>
              )}
            </td>
          </tr>
        )}
      />
    </Page>
  );
}

/** The operator's queue: every merchant's anticipations, pending first by default, approved or refused here. */
export function AnticipationQueuePage() {
  return <Queue t={area.anticipations} />;
}

function Queue({ t }: { t: AnticipationMessages }) {
  const [list, setList] = useState<ListState>({ ...EMPTY_LIST, status: 'pending' });
  const [notice, setNotice] = useState<string | null>(null);
  const [refusing, setRefusing] = useState<Anticipation | null>(null);
  const anticipations = useLoad(
    () => get<Anticipation[]>(`/v1/operator/anticipations${query({ ...list })}`),
    [list],
  );
  const action = useAction();
  const decide = (item: Anticipation, path: string, done: string, body?: unknown) =>
    action.run(async () => {
      await call('POST', `/v1/operator/anticipations/${item.id}/${path}`, body);
      setNotice(done);
      anticipations.reload();
    });
  const money = (item: Anticipation) => formatMoney(item.approved_amount);
  return (
    <Page title={t.queue.title}>
      <p>{t.queue.intro}</p>
      {notice && <Notice kind="success">{notice}</Notice>}
      <FieldErrors error={action.error} />
      <ListFilters statuses={ANTICIPATION_STATUSES} state={list} onChange={setList} />
      <PagedTable
        loaded={anticipations}
        caption={t.queue.caption}
        head={Object.values(t.queue.head)}
        empty={t.queue.empty}
        onPage={(page) => setList({ ...list, page })}
        row={(item) => (
          <tr key={item.id}>
            <td>
              <small class="muted">{item.merchant_id}</small>
            </td>
            <td>{formatTime(item.created_at)}</td>
            <td>{formatDay(item.payment_date)}</td>
            <td>{money(item)}</td>
            <td>{formatMoney(item.fee)}</td>
            <td>
              <Badge value={item.status} />
            </td>
            <td>
              {item.status === 'pending' && (
                <div class="actions compact">
                  <button
                    type="button"
                    class="primary"
                    disabled={action.busy}
                    aria-label={t.queue.approveLabel(money(item))}
                    onClick={() => decide(item, 'approve', t.queue.approved(money(item)))}
                  >
                    {t.queue.approve}
                  </button>
                  <button
                    type="button"
                    disabled={action.busy}
                    aria-label={t.queue.refuseLabel(money(item))}
                    onClick={() => setRefusing(item)}
                  >
                    {t.queue.refuse}
                  </button>
                </div>
              )}
            </td>
          </tr>
        )}
      />
      <ReasonDialog
        title={refusing ? t.queue.refuseTitle(money(refusing)) : null}
        onCancel={() => setRefusing(null)}
        onSubmit={(reason) => {
          const target = refusing;
          setRefusing(null);
          if (target) decide(target, 'refuse', t.queue.refused(money(target)), { reason });
        }}
      />
    </Page>
  );
}
