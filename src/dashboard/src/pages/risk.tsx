import { useState } from 'preact/hooks';
import { get, query } from '../api.js';
import { area, formatCount, formatMoney, formatRatio, reasonText } from '../i18n/index.js';
import { lastDays, PeriodFilter } from '../period.js';
import { Facts, type InputEvent, inputValue, Page, Show, Table, useLoad } from '../ui.js';

/** What GET /v1/risk/performance answers (docs/charges.md, "Risk performance"). */
interface Performance {
  analysed: number;
  approved: Share;
  review: Share;
  declined: Share;
  fraud: {
    paid_count: number;
    paid_amount: number;
    disputed_count: number;
    disputed_amount: number;
    rate_by_count: number;
    rate_by_amount: number;
  };
  review_outcomes: Record<keyof (typeof area)['risk']['outcomes'], number>;
  reasons: { code: string; charges: number; fraud: number; precision: number }[];
  what_if: {
    review_at: number;
    decline_at: number;
    days: number;
    approval_rate: number;
    review_rate: number;
    decline_rate: number;
    fraud_rate_by_count: number;
    fraud_rate_by_amount: number;
  };
}

interface Share {
  count: number;
  rate: number;
}

interface Thresholds {
  review_at: number;
  decline_at: number;
}

const share = (part: Share) => `${formatRatio(part.rate)} (${formatCount(part.count)})`;

/** Two scores to try; the service answers what they would have done. A review score above the decline one is refused here. */
function WhatIfForm(props: { current: Thresholds; onSimulate: (thresholds: Thresholds) => void }) {
  const [draft, setDraft] = useState(props.current);
  const invalid = draft.review_at > draft.decline_at;
  const field = (name: keyof Thresholds, label: string) => (
    <label>
      {label}
      <input
        type="number"
        min={1}
        max={100}
        required
        value={draft[name]}
        aria-invalid={invalid}
        aria-describedby={invalid ? 'what-if-error' : undefined}
        onInput={(event: InputEvent) => setDraft({ ...draft, [name]: Number(inputValue(event)) })}
      />
    </label>
  );
  return (
    <form
      class="filters"
      aria-label={area.risk.whatIf}
      onSubmit={(event) => {
        event.preventDefault();
        if (!invalid) props.onSimulate(draft);
      }}
    >
      {field('review_at', area.risk.reviewAt)}
      {field('decline_at', area.risk.declineAt)}
      <button type="submit">{area.risk.simulate}</button>
      {invalid && (
        <span id="what-if-error" class="field-error">
          {area.risk.outOfOrder}
        </span>
      )}
    </form>
  );
}

/** How the fraud analysis did: its rates, the fraud that got through, how reviews ended, each reason's precision. */
export function RiskPage() {
  const [period, setPeriod] = useState(() => lastDays(30));
  // Null: the merchant's own thresholds.
  const [tried, setTried] = useState<Thresholds | null>(null);
  const performance = useLoad(
    () =>
      get<Performance>(
        `/v1/risk/performance${query({ date_from: period.from, date_to: period.to, ...tried })}`,
      ),
    [period.from, period.to, tried?.review_at, tried?.decline_at],
  );
  return (
    <Page title={area.risk.title}>
      <PeriodFilter period={period} onChange={setPeriod} />
      <Show loaded={performance}>
        {({ data }) => {
          const { fraud, review_outcomes: outcomes, what_if: whatIf } = data;
          return (
            <>
              <Facts
                items={[
                  [area.risk.analysed, formatCount(data.analysed)],
                  [area.risk.approvalRate, share(data.approved)],
                  [area.risk.reviewRate, share(data.review)],
                  [area.risk.declineRate, share(data.declined)],
                  [`${area.risk.fraudRate}, ${area.risk.byCount}`, formatRatio(fraud.rate_by_count)],
                  [`${area.risk.fraudRate}, ${area.risk.byAmount}`, formatRatio(fraud.rate_by_amount)],
                ]}
              />
              <div class="grid">
                <figure class="card">
                  <figcaption>{area.risk.fraudRate}</figcaption>
                  <p class="hint">{area.risk.fraudRateNote}</p>
                  <Facts
                    items={[
                      [
                        area.risk.paid,
                        area.risk.countAndAmount(
                          formatCount(fraud.paid_count),
                          formatMoney(fraud.paid_amount),
                        ),
                      ],
                      [
                        area.risk.disputed,
                        area.risk.countAndAmount(
                          formatCount(fraud.disputed_count),
                          formatMoney(fraud.disputed_amount),
                        ),
                      ],
                    ]}
                  />
                </figure>
                <figure class="card">
                  <figcaption>{area.risk.reviews}</figcaption>
                  <Table
                    caption={area.risk.reviews}
                    head={[area.risk.reviewHead.outcome, area.risk.reviewHead.charges]}
                  >
                    {(Object.keys(area.risk.outcomes) as (keyof typeof outcomes)[]).map((outcome) => (
                      <tr key={outcome}>
                        <td>{area.risk.outcomes[outcome]}</td>
                        <td>{formatCount(outcomes[outcome])}</td>
                      </tr>
                    ))}
                  </Table>
                </figure>
              </div>
              <section aria-labelledby="reasons">
                <h2 id="reasons">{area.risk.reasons}</h2>
                <p class="hint">{area.risk.reasonsNote}</p>
                {data.reasons.length === 0 ? (
                  <p>{area.risk.noReasons}</p>
                ) : (
                  <Table
                    caption={area.risk.reasons}
                    head={[
                      area.risk.reasonHead.code,
                      area.risk.reasonHead.charges,
                      area.risk.reasonHead.fraud,
                      area.risk.reasonHead.notFraud,
                      area.risk.reasonHead.precision,
                    ]}
                  >
                    {data.reasons.map((reason) => (
                      <tr key={reason.code}>
                        <td>
                          <strong>{reason.code}</strong>
                          <br />
                          <span class="muted">{reasonText(reason.code, '')}</span>
                        </td>
                        <td>{formatCount(reason.charges)}</td>
                        <td>{formatCount(reason.fraud)}</td>
                        <td>{formatCount(reason.charges - reason.fraud)}</td>
                        <td>{formatRatio(reason.precision)}</td>
                      </tr>
                    ))}
                  </Table>
                )}
              </section>
              <section aria-labelledby="what-if">
                <h2 id="what-if">{area.risk.whatIf}</h2>
                <p class="hint">{area.risk.whatIfNote(whatIf.days)}</p>
                <WhatIfForm
                  key={`${whatIf.review_at} ${whatIf.decline_at}`}
                  current={{ review_at: whatIf.review_at, decline_at: whatIf.decline_at }}
                  onSimulate={setTried}
                />
                <Facts
                  items={[
                    [area.risk.approvalRate, formatRatio(whatIf.approval_rate)],
                    [area.risk.reviewRate, formatRatio(whatIf.review_rate)],
                    [area.risk.declineRate, formatRatio(whatIf.decline_rate)],
                    [
                      `${area.risk.fraudAmongApproved}, ${area.risk.byCount}`,
                      formatRatio(whatIf.fraud_rate_by_count),
                    ],
                    [
                      `${area.risk.fraudAmongApproved}, ${area.risk.byAmount}`,
                      formatRatio(whatIf.fraud_rate_by_amount),
                    ],
                  ]}
                />
              </section>
            </>
          );
        }}
      </Show>
    </Page>
  );
}
