import { useEffect, useRef, useState } from 'preact/hooks';
import { get, query } from '../api.js';
import type { Series } from '../charts.js';
import type { HomeDay as Day, HomeSummary } from '../home-summary.js';
import { Facts, formatMoney, inputValue, Page, Show, Table, useLoad } from '../ui.js';

const isoDay = (date: Date) => date.toISOString().slice(0, 10);
const daysAgo = (n: number) => isoDay(new Date(Date.now() - n * 24 * 60 * 60 * 1000));
const percent = (part: number, whole: number) =>
  whole === 0 ? '—' : `${((100 * part) / whole).toFixed(1)}%`;

/** A chart drawn by the lazily loaded chart module, with its numbers as a table for screen readers. */
function DailyChart(props: { title: string; days: Day[]; series: Series[] }) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    let cleanup = () => {};
    let current = true;
    import('../charts.js').then(({ drawDaily }) => {
      if (current && box.current) {
        cleanup = drawDaily(
          box.current,
          props.days.map((day) => day.date),
          props.series,
        );
      }
    });
    return () => {
      current = false;
      cleanup();
    };
  }, [props.days, props.series]);
  return (
    <figure class="card chart">
      <figcaption>{props.title}</figcaption>
      <div ref={box} aria-hidden="true" />
      <details>
        <summary>Numbers of “{props.title}”</summary>
        <Table caption={props.title} head={['Day', ...props.series.map((s) => s.label)]}>
          {props.days.map((day, index) => (
            <tr key={day.date}>
              <td>{day.date}</td>
              {props.series.map((s) => (
                <td key={s.label}>{s.format ? s.format(s.values[index] ?? 0) : s.values[index]}</td>
              ))}
            </tr>
          ))}
        </Table>
      </details>
    </figure>
  );
}

/** Horizontal bars in HTML: categories read better as a list than on a time axis. */
function Bars(props: { title: string; items: { label: string; value: number }[]; empty: string }) {
  const max = Math.max(1, ...props.items.map((item) => item.value));
  return (
    <figure class="card">
      <figcaption>{props.title}</figcaption>
      {props.items.length === 0 ? (
        <p>{props.empty}</p>
      ) : (
        <ul class="bars">
          {props.items.map((item) => (
            <li key={item.label}>
              <span class="bar-label">{item.label}</span>
              <span class="bar" style={{ width: `${(100 * item.value) / max}%` }} />
              <span class="bar-value">{item.value}</span>
            </li>
          ))}
        </ul>
      )}
    </figure>
  );
}

const rate = (part: number, day: Day) =>
  day.charges === 0 ? 0 : Math.round((1000 * part) / day.charges) / 10;

export function HomePage() {
  const [period, setPeriod] = useState({ from: daysAgo(29), to: isoDay(new Date()) });
  const stats = useLoad(
    () => get<HomeSummary>(`/home${query({ date_from: period.from, date_to: period.to })}`),
    [period.from, period.to],
  );
  const preset = (days: number) => setPeriod({ from: daysAgo(days - 1), to: isoDay(new Date()) });
  return (
    <Page title="Home">
      <form class="filters" aria-label="Period" onSubmit={(event) => event.preventDefault()}>
        <button type="button" onClick={() => preset(7)}>
          7 days
        </button>
        <button type="button" onClick={() => preset(30)}>
          30 days
        </button>
        <button type="button" onClick={() => preset(90)}>
          90 days
        </button>
        <label>
          From
          <input
            type="date"
            value={period.from}
            onChange={(e) => setPeriod({ ...period, from: inputValue(e) })}
          />
        </label>
        <label>
          To
          <input
            type="date"
            value={period.to}
            onChange={(e) => setPeriod({ ...period, to: inputValue(e) })}
          />
        </label>
      </form>
      <Show loaded={stats}>
        {({ data }) => {
          const { totals, sessions, webhooks, days } = data;
          return (
            <>
              <Facts
                items={[
                  ['Charges', String(totals.charges)],
                  ['Amount', formatMoney(totals.amount)],
                  ['Approved', percent(totals.approved, totals.charges)],
                  ['Review', percent(totals.review, totals.charges)],
                  ['Declined', percent(totals.declined, totals.charges)],
                  [
                    'Webhook success',
                    webhooks.success_rate === null
                      ? 'no attempts'
                      : `${(100 * webhooks.success_rate).toFixed(1)}%`,
                  ],
                ]}
              />
              <div class="grid">
                <DailyChart
                  title="Charges and amount per day"
                  days={days}
                  series={[
                    { label: 'Charges', values: days.map((d) => d.charges), color: '#1d4ed8' },
                    {
                      label: 'Amount',
                      values: days.map((d) => d.amount),
                      color: '#047857',
                      right: true,
                      format: formatMoney,
                    },
                  ]}
                />
                <DailyChart
                  title="Approval, review and decline rates per day (%)"
                  days={days}
                  series={[
                    { label: 'Approved %', values: days.map((d) => rate(d.approved, d)), color: '#047857' },
                    { label: 'Review %', values: days.map((d) => rate(d.review, d)), color: '#b45309' },
                    { label: 'Declined %', values: days.map((d) => rate(d.declined, d)), color: '#b91c1c' },
                  ]}
                />
                <Bars
                  title="Top risk reason codes"
                  items={data.top_reasons.map((r) => ({ label: r.code, value: r.count }))}
                  empty="No risk reasons in this period."
                />
                <Bars
                  title="Fraud-session coverage"
                  items={[
                    { label: 'Sessions created', value: sessions.created },
                    { label: 'Profiled', value: sessions.profiled },
                    { label: 'Profiler blocked', value: sessions.blocked_profiler },
                    { label: 'Used by a charge', value: sessions.consumed },
                    { label: 'Expired unused', value: sessions.expired_unused },
                    { label: 'Reuse refused', value: sessions.reuse_refused },
                  ]}
                  empty=""
                />
                <figure class="card">
                  <figcaption>Webhook deliveries</figcaption>
                  <Facts
                    items={[
                      ['Attempts', String(webhooks.attempts)],
                      ['Succeeded', String(webhooks.succeeded)],
                      [
                        'Latency p50',
                        webhooks.latency_p50_ms === null ? '—' : `${webhooks.latency_p50_ms} ms`,
                      ],
                      [
                        'Latency p95',
                        webhooks.latency_p95_ms === null ? '—' : `${webhooks.latency_p95_ms} ms`,
                      ],
                    ]}
                  />
                </figure>
              </div>
            </>
          );
        }}
      </Show>
    </Page>
  );
}
