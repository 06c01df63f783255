import { t } from './i18n/index.js';
import { DateInput } from './ui.js';

// A period of days, as Home and Risk read their figures: its own module, a chunk those pages share.

export interface Period {
  /** `YYYY-MM-DD`, inclusive. */
  from: string;
  to: string;
}

const isoDay = (date: Date) => date.toISOString().slice(0, 10);

/** The last `days` days, today included. */
export const lastDays = (days: number): Period => ({
  from: isoDay(new Date(Date.now() - (days - 1) * 24 * 60 * 60 * 1000)),
  to: isoDay(new Date()),
});

/** Buttons for the last 7, 30 and 90 days, and the period's two days to type. */
export function PeriodFilter(props: { period: Period; onChange: (period: Period) => void }) {
  const { period, onChange } = props;
  return (
    <form class="filters" aria-label={t.common.period} onSubmit={(event) => event.preventDefault()}>
      {[7, 30, 90].map((days) => (
        <button key={days} type="button" onClick={() => onChange(lastDays(days))}>
          {t.common.days(days)}
        </button>
      ))}
      <DateInput
        label={t.common.from}
        value={period.from}
        onChange={(from) => from && onChange({ ...period, from })}
      />
      <DateInput label={t.common.to} value={period.to} onChange={(to) => to && onChange({ ...period, to })} />
    </form>
  );
}
