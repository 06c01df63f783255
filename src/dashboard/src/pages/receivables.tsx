import { useState } from 'preact/hooks';
import { get, query } from '../api.js';
import { area, formatDay, formatMoney, statusLabel } from '../i18n/index.js';
import { formatMonth } from '../money-format.js';
import {
  type DayStatusTotal,
  RECEIVABLE_STATUSES,
  type ReceivableCalendar,
  type ReceivableStatus,
} from '../money-summary.js';
import { navigate, useLocation } from '../router.js';
import {
  Badge,
  EMPTY_LIST,
  Facts,
  Link,
  ListFilters,
  type ListState,
  Page,
  PagedTable,
  Show,
  useLoad,
} from '../ui.js';

export interface Receivable {
  id: string;
  charge_id: string;
  installment: number;
  installments: number;
  recipient: { type: 'merchant' | 'submerchant'; id: string };
  amount: number;
  fee: number;
  net_amount: number;
  status: ReceivableStatus;
  type: string;
  payment_date: string;
  original_payment_date: string;
  anticipation_id: string | null;
  paid_at: string | null;
  created_at: string;
}

const thisMonth = () => new Date().toISOString().slice(0, 7);

/** `YYYY-MM` moved by `by` months. */
function shiftMonth(month: string, by: number): string {
  const [year, number] = month.split('-').map(Number) as [number, number];
  return new Date(Date.UTC(year, number - 1 + by, 1)).toISOString().slice(0, 7);
}

/** The last day (`YYYY-MM-DD`) of a `YYYY-MM` month. */
function lastDayOf(month: string): string {
  const [year, number] = month.split('-').map(Number) as [number, number];
  return new Date(Date.UTC(year, number, 0)).toISOString().slice(0, 10);
}

/** The month as weeks of seven cells, Sunday first; days outside the month are null. */
function weeksOf(month: string): (string | null)[][] {
  const [year, number] = month.split('-').map(Number) as [number, number];
  const first = new Date(Date.UTC(year, number - 1, 1));
  const length = new Date(Date.UTC(year, number, 0)).getUTCDate();
  const cells: (string | null)[] = Array.from({ length: first.getUTCDay() }, () => null);
  for (let day = 1; day <= length; day++) cells.push(`${month}-${String(day).padStart(2, '0')}`);
  while (cells.length % 7 !== 0) cells.push(null);
  return Array.from({ length: cells.length / 7 }, (_, week) => cells.slice(week * 7, week * 7 + 7));
}

type Totals = Partial<Record<ReceivableStatus, DayStatusTotal>>;

/** `a receber R$ 100,00 (2 recebíveis); paga R$ 50,00 (1 recebível)`: what a day or the month holds. */
const summaryOf = (totals: Totals) =>
  RECEIVABLE_STATUSES.filter((status) => totals[status])
    .map((status) => {
      const total = totals[status]!;
      return `${statusLabel(status)} ${formatMoney(total.net_amount)} (${area.money.receivables.count(total.count)})`;
    })
    .join('; ');

function Calendar(props: {
  calendar: ReceivableCalendar;
  selected: string | null;
  onSelect: (day: string) => void;
}) {
  const byDay = new Map(props.calendar.days.map((day) => [day.date, day.statuses]));
  const caption = area.money.receivables.calendar(formatMonth(props.calendar.month));
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard
    <section class="table-wrap" tabIndex={0} aria-label={caption}>
      <table class="calendar">
        <caption class="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            {area.money.receivables.weekdaysShort.map((short, index) => (
              <th scope="col" key={short}>
                <abbr title={area.money.receivables.weekdays[index]}>{short}</abbr>
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {weeksOf(props.calendar.month).map((week) => (
            <tr key={week.find(Boolean)}>
              {week.map((day, index) => {
                if (!day) return <td key={`empty-${index}`} />;
                const statuses = byDay.get(day);
                const number = Number(day.slice(8));
                if (!statuses) {
                  return (
                    <td key={day}>
                      <span class="day-number">{number}</span>
                    </td>
                  );
                }
                return (
                  <td key={day} class="has-receivables">
                    <button
                      type="button"
                      aria-pressed={props.selected === day}
                      aria-label={area.money.receivables.showDay(formatDay(day), summaryOf(statuses))}
                      onClick={() => props.onSelect(day)}
                    >
                      <span class="day-number">{number}</span>
                      {RECEIVABLE_STATUSES.filter((status) => statuses[status]).map((status) => (
                        <span key={status} class={`due due-${status}`}>
                          {formatMoney(statuses[status]!.net_amount)}
                        </span>
                      ))}
                    </button>
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

function ReceivableRow(props: { receivable: Receivable }) {
  const r = props.receivable;
  return (
    <tr>
      <td>
        {formatDay(r.payment_date)}
        {r.payment_date !== r.original_payment_date && (
          <>
            <br />
            <small class="muted">
              {area.money.receivables.movedFrom(formatDay(r.original_payment_date))}
            </small>
          </>
        )}
      </td>
      <td>
        {formatMoney(r.net_amount)}
        <br />
        <small class="muted">
          {area.money.receivables.grossAndFee(formatMoney(r.amount), formatMoney(r.fee))}
        </small>
      </td>
      <td>
        <Badge value={r.status} />
      </td>
      <td>{area.money.receivables.installmentOf(r.installment, r.installments)}</td>
      <td>{area.money.receivables.types[r.type] ?? r.type}</td>
      <td>
        {r.recipient.type === 'merchant' ? (
          area.money.receivables.you
        ) : (
          <Link href={`/submerchants/${r.recipient.id}`}>
            {area.money.receivables.submerchant} <code>{r.recipient.id.slice(0, 8)}</code>
          </Link>
        )}
      </td>
      <td>
        <Link href={`/charges/${r.charge_id}`}>
          <code>{r.charge_id}</code>
        </Link>
      </td>
    </tr>
  );
}

/** The receivables calendar: a month of payment dates with what falls due on each, and the list below it. */
export function ReceivablesPage() {
  const { search } = useLocation();
  const requested = search.get('month') ?? '';
  const month = /^\d{4}-(0[1-9]|1[0-2])$/.test(requested) ? requested : thisMonth();
  const [day, setDay] = useState<string | null>(null);
  // One wallet's receivables (its owner's id: the merchant's or a submerchant's), as its wallet page links them.
  const recipient = search.get('recipient') || undefined;
  const [list, setList] = useState<ListState>(EMPTY_LIST);
  const calendar = useLoad(
    () => get<ReceivableCalendar>(`/receivables/calendar${query({ month, recipient_id: recipient })}`),
    [month, recipient],
  );
  const range = day
    ? { payment_date_from: day, payment_date_to: day }
    : { payment_date_from: `${month}-01`, payment_date_to: lastDayOf(month) };
  const receivables = useLoad(
    // The list's `submerchant_id` is the recipient's id, the merchant's own included.
    () => get<Receivable[]>(`/v1/receivables${query({ ...list, ...range, submerchant_id: recipient })}`),
    [list, range.payment_date_from, range.payment_date_to, recipient],
  );
  const goTo = (next: string, to = recipient) => {
    setDay(null);
    setList({ ...list, page: 1 });
    navigate(`/receivables${query({ month: next, recipient: to })}`);
  };
  return (
    <Page
      title={area.money.receivables.title}
      actions={
        <>
          <button type="button" onClick={() => goTo(shiftMonth(month, -1))}>
            {area.money.receivables.previousMonth}
          </button>
          <button type="button" onClick={() => goTo(shiftMonth(month, 1))}>
            {area.money.receivables.nextMonth}
          </button>
        </>
      }
    >
      <p>{area.money.receivables.intro}</p>
      {recipient && (
        <p>
          {area.money.receivables.onlyRecipient(recipient)}{' '}
          <button type="button" onClick={() => goTo(month, undefined)}>
            {area.money.receivables.allRecipients}
          </button>
        </p>
      )}
      <h2>{formatMonth(month)}</h2>
      <Show loaded={calendar}>
        {({ data }) => (
          <>
            {data.days.length === 0 ? (
              <p>{area.money.receivables.noneThisMonth}</p>
            ) : (
              <Facts
                items={RECEIVABLE_STATUSES.filter((status) => data.totals[status]).map((status) => [
                  `${area.money.receivables.monthTotals}: ${statusLabel(status)}`,
                  `${formatMoney(data.totals[status]!.net_amount)} · ${area.money.receivables.count(data.totals[status]!.count)}`,
                ])}
              />
            )}
            <Calendar
              calendar={data}
              selected={day}
              onSelect={(selected) => {
                setDay(selected === day ? null : selected);
                setList({ ...list, page: 1 });
              }}
            />
          </>
        )}
      </Show>
      <div class="page-head">
        <h2>
          {day
            ? area.money.receivables.dayOf(formatDay(day))
            : area.money.receivables.monthOf(formatMonth(month))}
        </h2>
        {day && (
          <button type="button" onClick={() => setDay(null)}>
            {area.money.receivables.wholeMonth}
          </button>
        )}
      </div>
      <ListFilters statuses={RECEIVABLE_STATUSES} state={list} onChange={setList} />
      <PagedTable
        loaded={receivables}
        caption={
          day
            ? area.money.receivables.dayOf(formatDay(day))
            : area.money.receivables.monthOf(formatMonth(month))
        }
        head={[
          area.money.receivables.head.paymentDate,
          area.money.receivables.head.net,
          area.money.receivables.head.status,
          area.money.receivables.head.installment,
          area.money.receivables.head.type,
          area.money.receivables.head.recipient,
          area.money.receivables.head.charge,
        ]}
        empty={area.money.receivables.empty}
        row={(receivable) => <ReceivableRow key={receivable.id} receivable={receivable} />}
        onPage={(page) => setList({ ...list, page })}
      />
    </Page>
  );
}
