import { useId, useState } from 'preact/hooks';
import { call, get, query } from '../api.js';
import { area } from '../i18n/index.js';
import { formatHundredths, parseHundredths } from '../money-format.js';
import { FieldErrors, inputValue, Link, Notice, Page, Show, useAction, useLoad } from '../ui.js';

/** GET /v1/operator/merchants/:id/pricing: rates in basis points, amounts in centavos, delays in days. */
interface Pricing {
  card_mdr: { one_installment: number; two_to_six: number; seven_to_twelve: number };
  card_settlement_delay_days: number;
  anticipation_monthly_rate: number;
  withdrawal_fee: { pix: number; ted: number };
  minimum_withdrawal: number;
  pix: { fee: number; settlement_delay_days: number };
  boleto: { fee: number; settlement_delay_days: number };
}

/**
 * Every field of the form: where it lives in the pricing, and its kind. Rates are typed as percentages and
 * amounts as reais (both hundredths of what the API stores), delays as whole days.
 */
type Kind = 'percent' | 'money' | 'days';
const FIELDS = [
  ['card_mdr.one_installment', 'percent'],
  ['card_mdr.two_to_six', 'percent'],
  ['card_mdr.seven_to_twelve', 'percent'],
  ['card_settlement_delay_days', 'days'],
  ['anticipation_monthly_rate', 'percent'],
  ['withdrawal_fee.pix', 'money'],
  ['withdrawal_fee.ted', 'money'],
  ['minimum_withdrawal', 'money'],
  ['pix.fee', 'money'],
  ['pix.settlement_delay_days', 'days'],
  ['boleto.fee', 'money'],
  ['boleto.settlement_delay_days', 'days'],
] as const satisfies readonly (readonly [string, Kind])[];
type Field = (typeof FIELDS)[number][0];

const fieldValue = (pricing: Pricing, field: Field): number =>
  field
    .split('.')
    .reduce<unknown>((parent, key) => (parent as Record<string, unknown>)[key], pricing) as number;

const shown = (kind: Kind, value: number) => (kind === 'days' ? String(value) : formatHundredths(value));

/** The typed text as the API's number, or null when it is not valid for its kind. */
function parse(kind: Kind, text: string): number | null {
  if (kind === 'days') {
    return /^\s*\d{1,3}\s*$/.test(text) && Number(text) <= 365 ? Number(text) : null;
  }
  const value = parseHundredths(text);
  if (value === null) return null;
  return kind === 'percent' && value > 10_000 ? null : value;
}

/** The PATCH body: every field, nested as the API nests them. */
function body(values: Record<Field, number>): Record<string, unknown> {
  const patch: Record<string, Record<string, number> | number> = {};
  for (const [field] of FIELDS) {
    const [group, key] = field.split('.') as [string, string | undefined];
    if (key === undefined) patch[group] = values[field];
    else patch[group] = { ...(patch[group] as Record<string, number> | undefined), [key]: values[field] };
  }
  return patch;
}

function NumberField(props: { label: string; kind: Kind; text: string; onInput: (text: string) => void }) {
  const errorId = useId();
  const invalid = parse(props.kind, props.text) === null;
  const hint = { percent: area.money.pricing.percentHint, money: area.money.pricing.moneyHint, days: '' }[
    props.kind
  ];
  const error = {
    percent: area.money.pricing.invalidPercent,
    money: area.money.pricing.invalidMoney,
    days: area.money.pricing.invalidDays,
  }[props.kind];
  return (
    <label>
      {props.label}
      <input
        type="text"
        inputMode={props.kind === 'days' ? 'numeric' : 'decimal'}
        autoComplete="off"
        placeholder={hint || undefined}
        value={props.text}
        aria-invalid={invalid}
        aria-describedby={invalid ? errorId : undefined}
        onInput={(event) => props.onInput(inputValue(event))}
      />
      {invalid && (
        <span id={errorId} class="field-error">
          {error}
        </span>
      )}
    </label>
  );
}

function PricingForm(props: { merchantId: string; merchantName: string; pricing: Pricing }) {
  const [texts, setTexts] = useState<Record<Field, string>>(
    () =>
      Object.fromEntries(
        FIELDS.map(([field, kind]) => [field, shown(kind, fieldValue(props.pricing, field))]),
      ) as Record<Field, string>,
  );
  const [saved, setSaved] = useState(false);
  const action = useAction();
  const kindOf = Object.fromEntries(FIELDS) as Record<Field, Kind>;
  const input = (field: Field, label: string) => (
    <NumberField
      label={label}
      kind={kindOf[field]}
      text={texts[field]}
      onInput={(text) => {
        setSaved(false);
        setTexts({ ...texts, [field]: text });
      }}
    />
  );
  const submit = async (event: Event) => {
    event.preventDefault();
    const values = Object.fromEntries(FIELDS.map(([field, kind]) => [field, parse(kind, texts[field])]));
    if (Object.values(values).some((value) => value === null)) return;
    const path = `/v1/operator/merchants/${props.merchantId}/pricing`;
    if (await action.run(() => call('PATCH', path, body(values as Record<Field, number>)))) setSaved(true);
  };
  const p = area.money.pricing;
  return (
    <form class="stack pricing" onSubmit={submit} aria-label={p.title(props.merchantName)}>
      {saved && <Notice kind="success">{p.saved(props.merchantName)}</Notice>}
      <fieldset>
        <legend>{p.cardMdr}</legend>
        {input('card_mdr.one_installment', p.oneInstallment)}
        {input('card_mdr.two_to_six', p.twoToSix)}
        {input('card_mdr.seven_to_twelve', p.sevenToTwelve)}
      </fieldset>
      {input('card_settlement_delay_days', p.cardDelay)}
      {input('anticipation_monthly_rate', p.anticipation)}
      <fieldset>
        <legend>{p.withdrawals}</legend>
        {input('withdrawal_fee.pix', p.pixWithdrawalFee)}
        {input('withdrawal_fee.ted', p.tedWithdrawalFee)}
        {input('minimum_withdrawal', p.minimumWithdrawal)}
      </fieldset>
      <fieldset>
        <legend>{p.pix}</legend>
        {input('pix.fee', p.fee)}
        {input('pix.settlement_delay_days', p.delay)}
      </fieldset>
      <fieldset>
        <legend>{p.boleto}</legend>
        {input('boleto.fee', p.fee)}
        {input('boleto.settlement_delay_days', p.delay)}
      </fieldset>
      <FieldErrors error={action.error} />
      <div class="actions">
        <button type="submit" class="primary" disabled={action.busy}>
          {p.save}
        </button>
      </div>
    </form>
  );
}

/** The operator's page for what one merchant pays. */
export function PricingPage(props: { merchantId: string }) {
  const loaded = useLoad(async () => {
    // The pricing answers 404 for an unknown merchant; the list (searched by id) gives its name.
    const [pricing, merchants] = await Promise.all([
      get<Pricing>(`/v1/operator/merchants/${props.merchantId}/pricing`),
      get<{ id: string; name: string }[]>(`/v1/operator/merchants${query({ search: props.merchantId })}`),
    ]);
    const name =
      merchants.data.find((merchant) => merchant.id === props.merchantId)?.name ?? props.merchantId;
    return { ...pricing, data: { name, pricing: pricing.data } };
  }, [props.merchantId]);
  return (
    <Show loaded={loaded}>
      {({ data }) => (
        <Page
          title={area.money.pricing.title(data.name)}
          actions={<Link href="/merchants">{area.money.pricing.back}</Link>}
        >
          <p>{area.money.pricing.intro}</p>
          <PricingForm merchantId={props.merchantId} merchantName={data.name} pricing={data.pricing} />
        </Page>
      )}
    </Show>
  );
}
