import { useState } from 'preact/hooks';
import { call, get, query } from '../api.js';
import { formatTime } from '../i18n/index.js';
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
import { ReasonDialog } from './operator.js';

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
      Bank (COMPE code)
      <input
        name="bank"
        required
        list="bank-suggestions"
        value={props.value}
        placeholder="341 or a name"
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
    <form class="stack" onSubmit={submit} aria-label="Add a bank account">
      <h2>Add a bank account</h2>
      <p class="muted">
        Held by your CPF/CNPJ ({props.document}). It is pending until the platform verifies it.
      </p>
      <label>
        Holder name
        <input name="holder_name" required value={form.holder_name} onInput={field('holder_name')} />
      </label>
      <BankInput value={form.bank} onChange={(bank) => setForm({ ...form, bank })} />
      <div class="inline-form">
        <label>
          Branch
          <input name="branch" required inputMode="numeric" value={form.branch} onInput={field('branch')} />
        </label>
        <label>
          Branch digit
          <input name="branch_digit" value={form.branch_digit} onInput={field('branch_digit')} />
        </label>
        <label>
          Account
          <input
            name="account"
            required
            inputMode="numeric"
            value={form.account}
            onInput={field('account')}
          />
        </label>
        <label>
          Account digit
          <input name="account_digit" required value={form.account_digit} onInput={field('account_digit')} />
        </label>
      </div>
      <label>
        Type
        <select name="type" value={form.type} onChange={field('type')}>
          <option value="checking">Checking</option>
          <option value="savings">Savings</option>
          <option value="payment">Payment account</option>
        </select>
      </label>
      <label>
        PIX key (optional)
        <input name="pix_key" value={form.pix_key} onInput={field('pix_key')} />
      </label>
      <FieldErrors error={action.error} />
      <button type="submit" class="primary" disabled={action.busy}>
        Add bank account
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
    <form class="stack" onSubmit={submit} aria-label="Record your CPF or CNPJ">
      <h2>Your CPF or CNPJ</h2>
      <p class="muted">
        Your bank accounts must be held by it. You record it once; after that the platform operator changes
        it.
      </p>
      <label>
        CPF or CNPJ (digits only)
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
        Record
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
      setNotice(`${target.bank} ${branchOf(target)} ${target.account} is now your default account.`);
      accounts.reload();
    });
  return (
    <Page title="Bank accounts">
      {notice && <Notice kind="success">{notice}</Notice>}
      {action.error && <Notice kind="error">{action.error.message}</Notice>}
      <ListFilters statuses={BANK_ACCOUNT_STATUSES} state={list} onChange={setList} />
      <PagedTable
        loaded={accounts}
        caption="Bank accounts"
        head={['Bank', 'Branch', 'Account', 'Type', 'Status', 'Default', 'Created']}
        empty="No bank accounts yet."
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
                  <small class="muted">PIX {item.pix_key}</small>
                </>
              )}
            </td>
            <td>{item.type}</td>
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
                <strong>Default</strong>
              ) : (
                canChange &&
                item.status !== 'rejected' && (
                  <button
                    type="button"
                    disabled={action.busy}
                    onClick={() => makeDefault(item)}
                    aria-label={`Make ${item.account} the default`}
                  >
                    Make default
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
                  setNotice('Bank account added: it is pending verification.');
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
    <Page title="Bank account verification">
      <p>
        Check that each account is held by its owner (the holder's CPF/CNPJ is the owner's) before verifying
        it.
      </p>
      {notice && <Notice kind="success">{notice}</Notice>}
      <FieldErrors error={action.error} />
      <ListFilters statuses={BANK_ACCOUNT_STATUSES} state={list} onChange={setList} />
      <PagedTable
        loaded={accounts}
        caption="Bank accounts to verify"
        head={['Holder', 'Owner', 'Bank', 'Branch', 'Account', 'Status', 'Created', '']}
        empty="No bank account matches."
        onPage={(page) => setList({ ...list, page })}
        row={(item) => (
          <tr key={item.id}>
            <td>
              {item.holder_name}
              <br />
              <small class="muted">{item.holder_document}</small>
            </td>
            <td>
              {item.owner.type}
              <br />
              <small class="muted">{item.owner.id}</small>
            </td>
            <td>{item.bank}</td>
            <td>{branchOf(item)}</td>
            <td>
              {item.account}-{item.account_digit} · {item.type}
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
                    aria-label={`Verify ${item.holder_name} ${item.account}`}
                    onClick={() => decide(item, 'verify', `${item.holder_name}'s account verified.`)}
                  >
                    Verify
                  </button>
                  <button
                    type="button"
                    disabled={action.busy}
                    aria-label={`Reject ${item.holder_name} ${item.account}`}
                    onClick={() => setRejecting(item)}
                  >
                    Reject
                  </button>
                </div>
              )}
            </td>
          </tr>
        )}
      />
      <ReasonDialog
        title={rejecting ? `Reject ${rejecting.holder_name}'s account ${rejecting.account}?` : null}
        onCancel={() => setRejecting(null)}
        onSubmit={(reason) => {
          const target = rejecting;
          setRejecting(null);
          if (target) decide(target, 'reject', `${target.holder_name}'s account rejected.`, { reason });
        }}
      />
    </Page>
  );
}
