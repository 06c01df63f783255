import { useState } from 'preact/hooks';
import { call, get, query } from '../api.js';
import { formatTime, statusLabel, t } from '../i18n/index.js';
import type { SessionUser } from '../main.js';
import {
  Badge,
  EMPTY_LIST,
  Link,
  ListFilters,
  type ListState,
  Notice,
  Page,
  PagedTable,
  Show,
  useAction,
  useLoad,
} from '../ui.js';
import {
  documentType,
  History,
  type Submerchant,
  type SubmerchantDetail,
  type SubmerchantDocument,
  SubmerchantView,
} from './submerchant-view.js';

export const SUBMERCHANT_STATUSES = ['pending', 'pending_review', 'active', 'rejected'] as const;

export function SubmerchantsPage() {
  const [list, setList] = useState<ListState>(EMPTY_LIST);
  const submerchants = useLoad(() => get<Submerchant[]>(`/v1/submerchants${query({ ...list })}`), [list]);
  return (
    <Page title={t.submerchants.title}>
      <ListFilters statuses={SUBMERCHANT_STATUSES} state={list} onChange={setList} />
      <PagedTable
        loaded={submerchants}
        caption={t.submerchants.title}
        head={[
          t.submerchants.head.tradeName,
          t.submerchants.head.taxId,
          t.submerchants.head.status,
          t.submerchants.head.created,
        ]}
        empty={t.submerchants.empty}
        onPage={(page) => setList({ ...list, page })}
        row={(submerchant) => (
          <tr key={submerchant.id}>
            <td>
              <Link href={`/submerchants/${submerchant.id}`}>{submerchant.trade_name}</Link>
            </td>
            <td>{submerchant.tax_id}</td>
            <td>
              <Badge value={submerchant.status} />
            </td>
            <td>{formatTime(submerchant.created_at)}</td>
          </tr>
        )}
      />
    </Page>
  );
}

export function SubmerchantPage(props: { id: string; user: SessionUser }) {
  const base = `/v1/submerchants/${props.id}`;
  const detail = useLoad(() => get<SubmerchantDetail>(base), [props.id]);
  const replaced = useLoad(
    () => get<SubmerchantDocument[]>(`${base}/documents?current=false&limit=100`),
    [props.id],
  );
  const [notice, setNotice] = useState<string | null>(null);
  const action = useAction();
  const transition = (path: string, done: string) =>
    action.run(async () => {
      await call('POST', `${base}/${path}`);
      setNotice(done);
      detail.reload();
    });
  const canChange = props.user.role !== 'viewer';
  return (
    <Show loaded={detail}>
      {({ data }) => (
        <Page
          title={data.trade_name}
          actions={
            canChange && (
              <>
                {data.status === 'pending' && (
                  <button
                    type="button"
                    class="primary"
                    disabled={action.busy || !data.requirements.ready_for_review}
                    onClick={() => transition('submit-for-review', t.submerchants.submitted)}
                  >
                    {t.submerchants.submitForReview}
                  </button>
                )}
                {data.status === 'rejected' && (
                  <button
                    type="button"
                    disabled={action.busy}
                    onClick={() => transition('request-resubmission', t.submerchants.backToPending)}
                  >
                    {t.submerchants.requestResubmission}
                  </button>
                )}
              </>
            )
          }
        >
          <p>
            <Link href="/submerchants">{t.submerchants.all}</Link>
          </p>
          {notice && <Notice kind="success">{notice}</Notice>}
          {action.error && <Notice kind="error">{action.error.message}</Notice>}
          <SubmerchantView detail={data} />
          <h2>{t.submerchants.replaced}</h2>
          <Show loaded={replaced}>
            {(answer) =>
              answer.data.length === 0 ? (
                <p>{t.submerchants.noneReplaced}</p>
              ) : (
                answer.data.map((doc) => (
                  <details key={doc.id}>
                    <summary>
                      {documentType(doc.type)} · {statusLabel(doc.status)} ·{' '}
                      {t.submerchants.replacedAt(formatTime(doc.replaced_at))}
                    </summary>
                    <History entries={doc.status_history} caption={t.submerchants.historyOf(doc.file_name)} />
                  </details>
                ))
              )
            }
          </Show>
        </Page>
      )}
    </Show>
  );
}
