import { useState } from 'preact/hooks';
import { call, get, query } from '../api.js';
import { area, formatMoney, formatTime } from '../i18n/index.js';
import type { SessionUser } from '../main.js';
import {
  Confirm,
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

const WITHDRAWAL_STATUSES = [
  'pending',
  'processing',
  'transferred',
  'failed',
  'canceled',
  'returned',
] as const;
type Status = (typeof WITHDRAWAL_STATUSES)[number];
type Method = 'pix' | 'ted';

interface Withdrawal {
  id: string;
  method: Method;
  amount: number;
  fee: number;
  status: Status;
  end_to_end_id: string | null;
  failure_message: string | null;
  created_at: string;
}

interface VerifiedAccount {
  id: string;
  bank: string;
  branch: string;
  account: string;
  account_digit: string;
}

interface Terms {
  minimum: number;
  fee: Record<Method, number>;
}

interface Wallet {
  owner: { id: string };
  available: number;
}

/** Reais as typed ("150", "150,5", "150.50") in centavos; null when it is not an amount. */
function centavosOf(text: string): number | null {
  const found = /^(\d{1,9})(?:[.,](\d{1,2}))?$/.exec(text.trim());
  if (!found) return null;
  return Number(found[1]) * 100 + Number((found[2] ?? '').padEnd(2, '0'));
}

/** This page's words (the `withdrawals` area, loaded with the page). */
const w = () => area.withdrawals;

/** A withdrawal's status in this page's words (a withdrawal, not a charge: "falhou", "cancelado"). */
function StatusBadge(props: { status: Status }) {
  return <span class={`badge badge-${props.status}`}>{w().statuses[props.status]}</span>;
}

const accountLabel = (account: VerifiedAccount) =>
  `${account.bank} · ${account.branch} · ${account.account}-${account.account_digit}`;

/**
 * The withdraw form: account, method and amount, then a confirmation that shows the fee and what leaves the
 * balance. One Idempotency-Key per confirmation, so a double click or a retry makes one withdrawal.
 */
function Withdraw(props: { accounts: VerifiedAccount[]; terms: Terms; onCreated: () => void }) {
  const [accountId, setAccountId] = useState(props.accounts[0]?.id ?? '');
  const [method, setMethod] = useState<Method>('pix');
  const [amountText, setAmountText] = useState('');
  const [review, setReview] = useState<{ amount: number; key: string } | null>(null);
  const [invalid, setInvalid] = useState(false);
  const action = useAction();
  if (props.accounts.length === 0) return <p class="muted">{w().form.noAccount}</p>;
  const fee = props.terms.fee[method];
  const account = props.accounts.find((candidate) => candidate.id === accountId);
  const open = (event: Event) => {
    event.preventDefault();
    const amount = centavosOf(amountText);
    setInvalid(amount === null);
    if (amount !== null) setReview({ amount, key: crypto.randomUUID() });
  };
  const confirm = async () => {
    const current = review;
    setReview(null);
    if (!current) return;
    const created = await action.run(() =>
      call(
        'POST',
        '/v1/withdrawals',
        { amount: current.amount, bank_account_id: accountId, method },
        { 'idempotency-key': current.key },
      ),
    );
    if (created) {
      setAmountText('');
      props.onCreated();
    }
  };
  return (
    <form class="stack" onSubmit={open} aria-label={w().form.title}>
      <h2>{w().form.title}</h2>
      <label>
        {w().form.account}
        <select name="bank_account_id" value={accountId} onChange={(e) => setAccountId(inputValue(e))}>
          {props.accounts.map((candidate) => (
            <option key={candidate.id} value={candidate.id}>
              {accountLabel(candidate)}
            </option>
          ))}
        </select>
      </label>
      <div class="inline-form">
        <label>
          {w().form.method}
          <select name="method" value={method} onChange={(e) => setMethod(inputValue(e) as Method)}>
            <option value="pix">{w().methods.pix}</option>
            <option value="ted">{w().methods.ted}</option>
          </select>
        </label>
        <label>
          {w().form.amount}
          <input
            name="amount"
            required
            inputMode="decimal"
            value={amountText}
            aria-invalid={invalid}
            onInput={(e) => setAmountText(inputValue(e))}
          />
        </label>
      </div>
      {invalid && <Notice kind="error">{w().form.amountInvalid}</Notice>}
      <FieldErrors error={action.error} />
      <button type="submit" class="primary" disabled={action.busy}>
        {w().form.review}
      </button>
      <Confirm
        open={review !== null}
        title={w().confirm.title}
        confirmLabel={w().confirm.submit}
        onConfirm={confirm}
        onCancel={() => setReview(null)}
      >
        {review && (
          <Facts
            items={[
              [w().confirm.account, account ? accountLabel(account) : ''],
              [w().form.method, w().methods[method]],
              [w().confirm.amount, formatMoney(review.amount)],
              [w().confirm.fee, formatMoney(fee)],
              [w().confirm.total, formatMoney(review.amount + fee)],
            ]}
          />
        )}
      </Confirm>
    </form>
  );
}

export function WithdrawalsPage(props: { user: SessionUser }) {
  const [list, setList] = useState<ListState>(EMPTY_LIST);
  const [notice, setNotice] = useState<string | null>(null);
  const withdrawals = useLoad(() => get<Withdrawal[]>(`/v1/withdrawals${query({ ...list })}`), [list]);
  const wallets = useLoad(() => get<Wallet[]>('/v1/wallets?limit=100'), [withdrawals.answer]);
  const accounts = useLoad(
    () => get<VerifiedAccount[]>('/v1/account/bank-accounts?status=verified&limit=100'),
    [],
  );
  const terms = useLoad(() => get<Terms>('/v1/withdrawals/terms'), []);
  const action = useAction();
  const canChange = props.user.role !== 'viewer';
  const own = wallets.answer?.data.find((wallet) => wallet.owner.id === props.user.merchant_id);
  const cancel = (target: Withdrawal) =>
    action.run(async () => {
      await call('POST', `/v1/withdrawals/${target.id}/cancel`);
      setNotice(w().canceled);
      withdrawals.reload();
    });
  return (
    <Page title={w().title}>
      {own && <p>{w().available(formatMoney(own.available))}</p>}
      {notice && <Notice kind="success">{notice}</Notice>}
      {action.error && <Notice kind="error">{action.error.message}</Notice>}
      {canChange && (
        <Show loaded={accounts}>
          {(found) => (
            <Show loaded={terms}>
              {({ data }) => (
                <Withdraw
                  accounts={found.data}
                  terms={data}
                  onCreated={() => {
                    setNotice(w().created);
                    withdrawals.reload();
                  }}
                />
              )}
            </Show>
          )}
        </Show>
      )}
      <ListFilters statuses={WITHDRAWAL_STATUSES} state={list} onChange={setList} />
      <PagedTable
        loaded={withdrawals}
        caption={w().caption}
        head={Object.values(w().head)}
        empty={w().empty}
        onPage={(page) => setList({ ...list, page })}
        row={(item) => (
          <tr key={item.id}>
            <td>{formatTime(item.created_at)}</td>
            <td>{formatMoney(item.amount)}</td>
            <td>{formatMoney(item.fee)}</td>
            <td>{w().methods[item.method]}</td>
            <td>
              <StatusBadge status={item.status} />
            </td>
            <td>
              {item.failure_message ??
                (item.end_to_end_id && <small class="muted">{w().endToEnd(item.end_to_end_id)}</small>)}
            </td>
            <td>
              {canChange && item.status === 'pending' && (
                <button
                  type="button"
                  disabled={action.busy}
                  aria-label={w().cancelLabel(formatMoney(item.amount))}
                  onClick={() => cancel(item)}
                >
                  {w().cancel}
                </button>
              )}
            </td>
          </tr>
        )}
      />
    </Page>
  );
}
