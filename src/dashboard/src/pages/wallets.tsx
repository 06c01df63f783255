import { useState } from 'preact/hooks';
import { get, query } from '../api.js';
import { area, formatMoney, formatTime } from '../i18n/index.js';
import {
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

interface Wallet {
  id: string;
  owner: { type: 'merchant' | 'submerchant'; id: string };
  available: number;
  waiting_funds: number;
  in_transit: number;
  blocked: number;
  version: number;
  updated_at: string;
}

interface Entry {
  id: string;
  transaction_id: string;
  bucket: string;
  amount: number;
  balance_after: number;
  source: { type: string; id: string };
  created_at: string;
}

const ownerName = (wallet: Wallet) =>
  wallet.owner.type === 'merchant'
    ? area.money.wallets.yours
    : area.money.wallets.submerchantWallet(wallet.owner.id.slice(0, 8));

/** The merchant's wallet and each submerchant's, with their balances. */
export function WalletsPage() {
  const [list, setList] = useState<ListState>(EMPTY_LIST);
  const wallets = useLoad(() => get<Wallet[]>(`/v1/wallets${query({ ...list })}`), [list]);
  return (
    <Page title={area.money.wallets.title}>
      <p>{area.money.wallets.intro}</p>
      <ListFilters statuses={[]} state={list} onChange={setList} />
      <PagedTable
        loaded={wallets}
        caption={area.money.wallets.caption}
        head={[
          area.money.wallets.head.owner,
          area.money.wallets.head.available,
          area.money.wallets.head.waitingFunds,
          area.money.wallets.head.inTransit,
          area.money.wallets.head.blocked,
          area.money.wallets.head.updated,
        ]}
        empty={area.money.wallets.empty}
        row={(wallet) => (
          <tr key={wallet.id}>
            <td>
              <Link href={`/wallets/${wallet.id}`}>{ownerName(wallet)}</Link>
            </td>
            <td>{formatMoney(wallet.available)}</td>
            <td>{formatMoney(wallet.waiting_funds)}</td>
            <td>{formatMoney(wallet.in_transit)}</td>
            <td>{formatMoney(wallet.blocked)}</td>
            <td>{formatTime(wallet.updated_at)}</td>
          </tr>
        )}
        onPage={(page) => setList({ ...list, page })}
      />
    </Page>
  );
}

// A refund's or chargeback's entries name the charge they reverse.
const CHARGE_SOURCES = ['charge', 'refund', 'chargeback'];

/** Where an entry came from: a charge links to its page; anything else names its kind and id. */
function Source(props: { source: Entry['source'] }) {
  const kind = area.money.wallets.sources[props.source.type] ?? props.source.type;
  if (CHARGE_SOURCES.includes(props.source.type)) {
    return (
      <>
        {kind}{' '}
        <Link href={`/charges/${props.source.id}`}>
          <code>{props.source.id}</code>
        </Link>
      </>
    );
  }
  return (
    <>
      {kind} <code>{props.source.id}</code>
    </>
  );
}

/** One wallet: its balances now and its statement, newest first. */
export function WalletPage(props: { id: string }) {
  const wallet = useLoad(() => get<Wallet>(`/v1/wallets/${props.id}`), [props.id]);
  const [page, setPage] = useState(1);
  const entries = useLoad(
    () => get<Entry[]>(`/v1/wallets/${props.id}/entries${query({ page })}`),
    [props.id, page],
  );
  return (
    <Show loaded={wallet}>
      {({ data }) => (
        <Page title={`${area.money.wallets.walletTitle}: ${ownerName(data)}`}>
          <Facts
            items={[
              [
                area.money.wallets.owner,
                data.owner.type === 'merchant' ? (
                  area.money.wallets.yours
                ) : (
                  <Link href={`/submerchants/${data.owner.id}`}>
                    <code>{data.owner.id}</code>
                  </Link>
                ),
              ],
              [area.money.wallets.head.available, formatMoney(data.available)],
              [area.money.wallets.head.waitingFunds, formatMoney(data.waiting_funds)],
              [area.money.wallets.head.inTransit, formatMoney(data.in_transit)],
              [area.money.wallets.head.blocked, formatMoney(data.blocked)],
              [area.money.wallets.head.updated, formatTime(data.updated_at)],
            ]}
          />
          <p>
            <Link href={`/receivables?recipient=${data.owner.id}`}>{area.money.wallets.receivables}</Link>
          </p>
          <h2>{area.money.wallets.entries}</h2>
          <PagedTable
            loaded={entries}
            caption={area.money.wallets.entries}
            head={[
              area.money.wallets.entriesHead.date,
              area.money.wallets.entriesHead.bucket,
              area.money.wallets.entriesHead.amount,
              area.money.wallets.entriesHead.balanceAfter,
              area.money.wallets.entriesHead.source,
            ]}
            empty={area.money.wallets.entriesEmpty}
            row={(entry) => (
              <tr key={entry.id}>
                <td>{formatTime(entry.created_at)}</td>
                <td>{area.money.wallets.buckets[entry.bucket] ?? entry.bucket}</td>
                <td>{formatMoney(entry.amount)}</td>
                <td>{formatMoney(entry.balance_after)}</td>
                <td>
                  <Source source={entry.source} />
                </td>
              </tr>
            )}
            onPage={setPage}
          />
        </Page>
      )}
    </Show>
  );
}
