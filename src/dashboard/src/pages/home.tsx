import { useEffect, useRef, useState } from 'preact/hooks';
import { get, query } from '../api.js';
import type { Series } from '../charts.js';
import type { HomeDay as Day, HomeSummary } from '../home-summary.js';
import {
  area,
  formatCount,
  formatDay,
  formatMoney,
  formatRatio,
  formatShare,
  formatTime,
  t,
} from '../i18n/index.js';
import type { BalancesSummary } from '../money-summary.js';
import { DateInput, Facts, Link, Page, Show, Table, useLoad } from '../ui.js';

const isoDay = (date: Date) => date.toISOString().slice(0, 10);
const daysAgo = (n: number) => isoDay(new Date(Date.now() - n * 24 * 60 * 60 * 1000));

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
        <summary>{t.home.numbersOf(props.title)}</summary>
        <Table caption={props.title} head={[t.home.day, ...props.series.map((s) => s.label)]}>
          {props.days.map((day, index) => (
            <tr key={day.date}>
              <td>{formatDay(day.date)}</td>
              {props.series.map((s) => (
                <td key={s.label}>{(s.format ?? formatCount)(s.values[index] ?? 0)}</td>
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
              <span class="bar-value">{formatCount(item.value)}</span>
            </li>
          ))}
        </ul>
      )}
    </figure>
  );
}

const rate = (part: number, day: Day) =>
  day.charges === 0 ? 0 : Math.round((1000 * part) / day.charges) / 10;
const formatRate = (value: number) => formatRatio(value / 100);
const formatMs = (ms: number | null) => (ms === null ? '—' : `${formatCount(ms)} ms`);

/** The merchant's wallet now (whatever the period), and what it holds for its submerchants. */
function Balances() {
  const balances = useLoad(() => get<BalancesSummary>('/balances'), []);
  return (
    <section class="card" aria-labelledby="balances-title">
      <h2 id="balances-title">{area.money.balances.title}</h2>
      <Show loaded={balances}>
        {({ data: { merchant, submerchants } }) => (
          <>
            <p class="muted">{area.money.balances.balancesNow(formatTime(merchant.updated_at))}</p>
            <Facts
              items={[
                [area.money.balances.available, formatMoney(merchant.available)],
                [area.money.balances.waitingFunds, formatMoney(merchant.waiting_funds)],
                [area.money.balances.inTransit, formatMoney(merchant.in_transit)],
                [area.money.balances.blocked, formatMoney(merchant.blocked)],
              ]}
            />
            {submerchants.wallets > 0 && (
              <>
                <h3>{area.money.balances.submerchantBalances(submerchants.wallets)}</h3>
                <Facts
                  items={[
                    [area.money.balances.available, formatMoney(submerchants.available)],
                    [area.money.balances.waitingFunds, formatMoney(submerchants.waiting_funds)],
                    [area.money.balances.inTransit, formatMoney(submerchants.in_transit)],
                    [area.money.balances.blocked, formatMoney(submerchants.blocked)],
                  ]}
                />
              </>
            )}
            <p class="actions compact">
              <Link href="/receivables">{area.money.balances.receivablesLink}</Link>
              <Link href="/wallets">{area.money.balances.walletsLink}</Link>
            </p>
          </>
        )}
      </Show>
    </section>
  );
}

export function HomePage() {
  const [period, setPeriod] = useState({ from: daysAgo(29), to: isoDay(new Date()) });
  const stats = useLoad(
    () => get<HomeSummary>(`/home${query({ date_from: period.from, date_to: period.to })}`),
    [period.from, period.to],
  );
  const preset = (days: number) => setPeriod({ from: daysAgo(days - 1), to: isoDay(new Date()) });
  return (
    <Page title={t.home.title}>
      <Balances />
      <form class="filters" aria-label={t.home.period} onSubmit={(event) => event.preventDefault()}>
        {[7, 30, 90].map((days) => (
          <button key={days} type="button" onClick={() => preset(days)}>
            {t.home.days(days)}
          </button>
        ))}
        <DateInput
          label={t.common.from}
          value={period.from}
          onChange={(from) => from && setPeriod((current) => ({ ...current, from }))}
        />
        <DateInput
          label={t.common.to}
          value={period.to}
          onChange={(to) => to && setPeriod((current) => ({ ...current, to }))}
        />
      </form>
      <Show loaded={stats}>
        {({ data }) => {
          const { totals, sessions, webhooks, days } = data;
          return (
            <>
              <Facts
                items={[
                  [t.home.charges, formatCount(totals.charges)],
                  [t.home.amount, formatMoney(totals.amount)],
                  [t.home.approved, formatShare(totals.approved, totals.charges)],
                  [t.home.review, formatShare(totals.review, totals.charges)],
                  [t.home.declined, formatShare(totals.declined, totals.charges)],
                  [
                    t.home.webhookSuccess,
                    webhooks.success_rate === null ? t.home.noAttempts : formatRatio(webhooks.success_rate),
                  ],
                ]}
              />
              <div class="grid">
                <DailyChart
                  title={t.home.chargesPerDay}
                  days={days}
                  series={[
                    { label: t.home.charges, values: days.map((d) => d.charges), color: '#1d4ed8' },
                    {
                      label: t.home.amount,
                      values: days.map((d) => d.amount),
                      color: '#047857',
                      right: true,
                      format: formatMoney,
                    },
                  ]}
                />
                <DailyChart
                  title={t.home.ratesPerDay}
                  days={days}
                  series={[
                    {
                      label: t.home.approvedRate,
                      values: days.map((d) => rate(d.approved, d)),
                      color: '#047857',
                      format: formatRate,
                    },
                    {
                      label: t.home.reviewRate,
                      values: days.map((d) => rate(d.review, d)),
                      color: '#b45309',
                      format: formatRate,
                    },
                    {
                      label: t.home.declinedRate,
                      values: days.map((d) => rate(d.declined, d)),
                      color: '#b91c1c',
                      format: formatRate,
                    },
                  ]}
                />
                <Bars
                  title={t.home.topReasons}
                  items={data.top_reasons.map((r) => ({ label: r.code, value: r.count }))}
                  empty={t.home.noReasons}
                />
                <Bars
                  title={t.home.coverage}
                  items={[
                    { label: t.home.sessionsCreated, value: sessions.created },
                    { label: t.home.profiled, value: sessions.profiled },
                    { label: t.home.profilerBlocked, value: sessions.blocked_profiler },
                    { label: t.home.consumed, value: sessions.consumed },
                    { label: t.home.expiredUnused, value: sessions.expired_unused },
                    { label: t.home.reuseRefused, value: sessions.reuse_refused },
                  ]}
                  empty=""
                />
                <figure class="card">
                  <figcaption>{t.home.webhookDeliveries}</figcaption>
                  <Facts
                    items={[
                      [t.home.attempts, formatCount(webhooks.attempts)],
                      [t.home.succeeded, formatCount(webhooks.succeeded)],
                      [t.home.latencyP50, formatMs(webhooks.latency_p50_ms)],
                      [t.home.latencyP95, formatMs(webhooks.latency_p95_ms)],
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
