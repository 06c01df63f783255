import { useState } from 'preact/hooks';
import { call, get, query } from '../api.js';
import { formatTime, t } from '../i18n/index.js';
import type { SessionUser } from '../main.js';
import {
  Badge,
  EMPTY_LIST,
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

export const BANK_ACCOUNT_STATUSES = ['pending_verification', 'verified', 'rejected'] as const;

interface BankAccount {
  id: string;
  owner: { type: 'merchant' | 'submerchant'; id: string };
  holder_name: string;
  holder_document: string;
  bank: string;
  branch: string;
  branch_digit: string | null;
  account: string;
  account_digit: string;
  type: string;
  pix_key: string | null;
  status: string;
  rejection_reason: string | null;
  default: boolean;
  created_at: string;
}

interface Bank {
  compe: string;
  name: string;
  short_name: string;
  pix_participant: boolean;
}

const branchOf = (account: BankAccount) =>
  account.branch_digit ? `${account.branch}-${account.branch_digit}` : account.branch;

/** The bank field: a COMPE code, with the banks matching what is typed offered as suggestions. */
function BankInput(props: { value: string; onChange: (value: string) => void }) {
  const [suggestions, setSuggestions] = useState<Bank[]>([]);
  const onInput = async (value: string) => {
    props.onChange(value);
    if (value.trim().length < 2) return;
    const found = await get<Bank[]>(`/v1/banks${query({ search: value.trim(), limit: 20 })}`).catch(
      () => null,
    );
    if (found) setSuggestions(found.data);
  };
  return (
    <label>
      {t.bankAccounts.add.bank}
      <input
        name="bank"
        required
        list="bank-suggestions"
        value={props.value}
        placeholder={t.bankAccounts.add.bankPlaceholder}
        onInput={(e) => onInput(inputValue(e))}
      />
      <datalist id="bank-suggestions">
        {suggestions.map((bank) => (
          <option key={bank.compe} value={bank.compe}>
            {bank.compe} · {bank.short_name}
          </option>
        ))}
      </datalist>
    </label>
  );
}

const EMPTY_FORM = {
  holder_name: '',
  bank: '',
  branch: '',
  branch_digit: '',
  account: '',
  account_digit: '',
  type: 'checking',
  pix_key: '',
};

function AddBankAccount(props: { document: string; onAdded: () => void }) {
  const [form, setForm] = useState(EMPTY_FORM);
  const action = useAction();
  const field = (name: keyof typeof EMPTY_FORM) => (event: Parameters<typeof inputValue>[0]) =>
    setForm({ ...form, [name]: inputValue(event) });
  const submit = async (event: Event) => {
    event.preventDefault();
    const body = {
      ...form,
      holder_document: props.document,
      branch_digit: form.branch_digit || undefined,
      pix_key: form.pix_key || undefined,
    };
    if (await action.run(() => call('POST', '/v1/account/bank-accounts', body))) {
      setForm(EMPTY_FORM);
      props.onAdded();
    }
  };
  return (
    <form class="stack" onSubmit={submit} aria-label={t.bankAccounts.add.title}>
      <h2>{t.bankAccounts.add.title}</h2>
      <p class="muted">{t.bankAccounts.add.heldBy(props.document)}</p>
      <label>
        {t.bankAccounts.add.holderName}
        <input name="holder_name" required value={form.holder_name} onInput={field('holder_name')} />
      </label>
      <BankInput value={form.bank} onChange={(bank) => setForm({ ...form, bank })} />
      <div class="inline-form">
        <label>
          {t.bankAccounts.add.branch}
          <input name="branch" required inputMode="numeric" value={form.branch} onInput={field('branch')} />
        </label>
        <label>
          {t.bankAccounts.add.branchDigit}
          <input name="branch_digit" value={form.branch_digit} onInput={field('branch_digit')} />
        </label>
        <label>
          {t.bankAccounts.add.account}
          <input
            name="account"
            required
            inputMode="numeric"
            value={form.account}
            onInput={field('account')}
          />
        </label>
        <label>
          {t.bankAccounts.add.accountDigit}
          <input name="account_digit" required value={form.account_digit} onInput={field('account_digit')} />
        </label>
      </div>
      <label>
        {t.bankAccounts.add.type}
        <select name="type" value={form.type} onChange={field('type')}>
          <option value="checking">{t.bankAccounts.types.checking}</option>
          <option value="savings">{t.bankAccounts.types.savings}</option>
          <option value="payment">{t.bankAccounts.types.payment}</option>
        </select>
      </label>
      <label>
        {t.bankAccounts.add.pixKey}
        <input name="pix_key" value={form.pix_key} onInput={field('pix_key')} />
      </label>
      <FieldErrors error={action.error} />
      <button type="submit" class="primary" disabled={action.busy}>
        {t.bankAccounts.add.submit}
      </button>
    </form>
  );
}

/** A merchant without a CPF/CNPJ on record records it once, before its first bank account. */
function RecordDocument(props: { onRecorded: () => void }) {
  const [document, setDocument] = useState('');
  const action = useAction();
  const submit = async (event: Event) => {
    event.preventDefault();
    if (await action.run(() => call('PATCH', '/v1/account', { document }))) props.onRecorded();
  };
  return (
    <form class="stack" onSubmit={submit} aria-label={t.bankAccounts.document.form}>
      <h2>{t.bankAccounts.document.title}</h2>
      <p class="muted">{t.bankAccounts.document.why}</p>
      <label>
        {t.bankAccounts.document.label}
        <input
          name="document"
          required
          inputMode="numeric"
          value={document}
          onInput={(e) => setDocument(inputValue(e))}
        />
      </label>
      <FieldErrors error={action.error} />
      <button type="submit" disabled={action.busy}>
        {t.bankAccounts.document.submit}
      </button>
    </form>
  );
}

export function BankAccountsPage(props: { user: SessionUser }) {
  const [list, setList] = useState<ListState>(EMPTY_LIST);
  const [notice, setNotice] = useState<string | null>(null);
  const account = useLoad(() => get<{ document: string | null }>('/v1/account'), []);
  const accounts = useLoad(
    () => get<BankAccount[]>(`/v1/account/bank-accounts${query({ ...list })}`),
    [list],
  );
  const action = useAction();
  const canChange = props.user.role !== 'viewer';
  const makeDefault = (target: BankAccount) =>
    action.run(async () => {
      await call('POST', `/v1/account/bank-accounts/${target.id}/default`);
      setNotice(t.bankAccounts.nowDefault(`${target.bank} ${branchOf(target)} ${target.account}`));
      accounts.reload();
    });
  return (
    <Page title={t.bankAccounts.title}>
      {notice && <Notice kind="success">{notice}</Notice>}
      {action.error && <Notice kind="error">{action.error.message}</Notice>}
      <ListFilters statuses={BANK_ACCOUNT_STATUSES} state={list} onChange={setList} />
      <PagedTable
        loaded={accounts}
        caption={t.bankAccounts.caption}
        head={Object.values(t.bankAccounts.head)}
        empty={t.bankAccounts.empty}
        onPage={(page) => setList({ ...list, page })}
        row={(item) => (
          <tr key={item.id}>
            <td>{item.bank}</td>
            <td>{branchOf(item)}</td>
            <td>
              {item.account}-{item.account_digit}
              {item.pix_key && (
                <>
                  <br />
                  <small class="muted">{t.bankAccounts.pix(item.pix_key)}</small>
                </>
              )}
            </td>
            <td>{t.bankAccounts.types[item.type as keyof typeof t.bankAccounts.types] ?? item.type}</td>
            <td>
              <Badge value={item.status} />
              {item.rejection_reason && (
                <>
                  <br />
                  <small>{item.rejection_reason}</small>
                </>
              )}
            </td>
            <td>
              {item.default ? (
                <strong>{t.bankAccounts.isDefault}</strong>
              ) : (
                canChange &&
                item.status !== 'rejected' && (
                  <button
                    type="button"
                    disabled={action.busy}
                    onClick={() => makeDefault(item)}
                    aria-label={t.bankAccounts.makeDefaultLabel(item.account)}
                  >
                    {t.bankAccounts.makeDefault}
                  </button>
                )
              )}
            </td>
            <td>{formatTime(item.created_at)}</td>
          </tr>
        )}
      />
      {canChange && (
        <Show loaded={account}>
          {({ data }) =>
            data.document ? (
              <AddBankAccount
                document={data.document}
                onAdded={() => {
                  setNotice(t.bankAccounts.added);
                  accounts.reload();
                }}
              />
            ) : (
              <RecordDocument onRecorded={() => account.reload()} />
            )
          }
        </Show>
      )}
    </Page>
  );
}

/** The operator's queue: accounts pending verification, oldest last (newest first, like every list). */
export function BankAccountQueuePage() {
  const [list, setList] = useState<ListState>({ ...EMPTY_LIST, status: 'pending_verification' });
  const [notice, setNotice] = useState<string | null>(null);
  const [rejecting, setRejecting] = useState<BankAccount | null>(null);
  const accounts = useLoad(
    () => get<BankAccount[]>(`/v1/operator/bank-accounts${query({ ...list })}`),
    [list],
  );
  const action = useAction();
  const decide = (target: BankAccount, path: string, done: string, body?: unknown) =>
    action.run(async () => {
      await call('POST', `/v1/operator/bank-accounts/${target.id}/${path}`, body);
      setNotice(done);
      accounts.reload();
    });
  return (
    <Page title={t.bankAccounts.queue.title}>
      <p>{t.bankAccounts.queue.intro}</p>
      {notice && <Notice kind="success">{notice}</Notice>}
      <FieldErrors error={action.error} />
      <ListFilters statuses={BANK_ACCOUNT_STATUSES} state={list} onChange={setList} />
      <PagedTable
        loaded={accounts}
        caption={t.bankAccounts.queue.caption}
        head={Object.values(t.bankAccounts.queue.head)}
        empty={t.bankAccounts.queue.empty}
        onPage={(page) => setList({ ...list, page })}
        row={(item) => (
          <tr key={item.id}>
            <td>
              {item.holder_name}
              <br />
              <small class="muted">{item.holder_document}</small>
            </td>
            <td>
              {t.bankAccounts.queue.owners[item.owner.type]}
              <br />
              <small class="muted">{item.owner.id}</small>
            </td>
            <td>{item.bank}</td>
            <td>{branchOf(item)}</td>
            <td>
              {item.account}-{item.account_digit} ·{' '}
              {t.bankAccounts.types[item.type as keyof typeof t.bankAccounts.types] ?? item.type}
            </td>
            <td>
              <Badge value={item.status} />
            </td>
            <td>{formatTime(item.created_at)}</td>
            <td>
              {item.status === 'pending_verification' && (
                <div class="actions compact">
                  <button
                    type="button"
                    class="primary"
                    disabled={action.busy}
                    aria-label={t.bankAccounts.queue.verifyLabel(item.holder_name, item.account)}
                    onClick={() => decide(item, 'verify', t.bankAccounts.queue.verified(item.holder_name))}
                  >
                    {t.bankAccounts.queue.verify}
                  </button>
                  <button
                    type="button"
                    disabled={action.busy}
                    aria-label={t.bankAccounts.queue.rejectLabel(item.holder_name, item.account)}
                    onClick={() => setRejecting(item)}
                  >
                    {t.bankAccounts.queue.reject}
                  </button>
                </div>
              )}
            </td>
          </tr>
        )}
      />
      <ReasonDialog
        title={rejecting ? t.bankAccounts.queue.rejectTitle(rejecting.holder_name, rejecting.account) : null}
        onCancel={() => setRejecting(null)}
        onSubmit={(reason) => {
          const target = rejecting;
          setRejecting(null);
          if (target) decide(target, 'reject', t.bankAccounts.queue.rejected(target.holder_name), { reason });
        }}
      />
    </Page>
  );
}
