import { useState } from 'preact/hooks';
import { call, get } from '../api.js';
import { formatTime, statusLabel, t } from '../i18n/index.js';
import type { SessionUser } from '../main.js';
import { Link, Notice, Page, Show, useAction, useLoad } from '../ui.js';
import {
  documentType,
  History,
  type SubmerchantDetail,
  type SubmerchantDocument,
  SubmerchantList,
  SubmerchantView,
} from './submerchant-view.js';

export function SubmerchantsPage() {
  return (
    <Page title={t.submerchants.title}>
      <SubmerchantList source="/v1/submerchants" href={(id) => `/submerchants/${id}`} />
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
