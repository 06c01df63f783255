import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { get, query } from '../api.js';
import { formatMoney, formatRatio, formatTime, statusLabel, t } from '../i18n/index.js';
import {
  Badge,
  EMPTY_LIST,
  Facts,
  Link,
  ListFilters,
  type ListState,
  PagedTable,
  Table,
  useLoad,
} from '../ui.js';

export interface HistoryEntry {
  from: string | null;
  to: string;
  actor: 'merchant' | 'operator';
  actor_id: string;
  reason?: string;
  at: string;
}

export interface SubmerchantDocument {
  id: string;
  type: string;
  legal_representative_id: string | null;
  number: string | null;
  file_url: string;
  file_name: string;
  status: 'pending' | 'approved' | 'rejected' | 'expired';
  rejection_reason: string | null;
  expires_at: string | null;
  current: boolean;
  replaced_at: string | null;
  status_history: HistoryEntry[];
  created_at: string;
}

export interface Submerchant {
  id: string;
  merchant_id: string;
  entity_type: 'pf' | 'pj';
  tax_id: string;
  trade_name: string;
  legal_name: string;
  email: string;
  phone: string;
  business_type: string | null;
  average_ticket: number | null;
  monthly_revenue: number | null;
  mcc: string | null;
  status: 'pending' | 'pending_review' | 'active' | 'rejected';
  rejection_reason: string | null;
  submitted_at: string | null;
  /** The operator's block, apart from the status. */
  blocked: boolean;
  blocked_at: string | null;
  block_reason: string | null;
  created_at: string;
}

export interface SubmerchantDetail extends Submerchant {
  legal_representatives: {
    id: string;
    name: string;
    document: string;
    role: string | null;
    participation_percentage: number | null;
    is_admin: boolean;
  }[];
  addresses: {
    id: string;
    street: string;
    number: string;
    complement: string | null;
    neighborhood: string;
    city: string;
    state: string;
    zip_code: string;
    type: string;
    is_primary: boolean;
  }[];
  documents: SubmerchantDocument[];
  requirements: { ready_for_review: boolean; items: { code: string; message: string }[] };
  status_history: HistoryEntry[];
}

/** A document type as the language names it; a type newer than the catalogue as the service wrote it. */
export const documentType = (type: string): string =>
  (t.submerchants.documentTypes as Record<string, string>)[type] ?? type.replaceAll('_', ' ');

const requirementLabel = (code: string): string =>
  (t.submerchants.requirementCodes as Record<string, string>)[code] ??
  code.replaceAll('_', ' ').toLowerCase();

/** Who made a change: the merchant, or the operator user's e-mail when known. */
export type ActorNames = Record<string, string>;

function actorLabel(entry: HistoryEntry, names: ActorNames): string {
  if (entry.actor === 'merchant') return t.submerchants.byMerchant;
  return t.submerchants.byOperator(names[entry.actor_id] ?? entry.actor_id);
}

export function History(props: { entries: HistoryEntry[]; names?: ActorNames; caption: string }) {
  return (
    <Table
      caption={props.caption}
      head={[
        t.submerchants.historyHead.when,
        t.submerchants.historyHead.change,
        t.submerchants.historyHead.by,
        t.submerchants.historyHead.reason,
      ]}
    >
      {props.entries.map((entry) => (
        <tr key={`${entry.at}-${entry.to}`}>
          <td>{formatTime(entry.at)}</td>
          <td>
            {entry.from ? statusLabel(entry.from) : t.submerchants.new} → {statusLabel(entry.to)}
          </td>
          <td>{actorLabel(entry, props.names ?? {})}</td>
          <td>{entry.reason ?? ''}</td>
        </tr>
      ))}
    </Table>
  );
}

/** Its onboarding status, and beside it the operator's block, which is apart from the status
 * (docs/decisions/submerchant-block.md). */
export function SubmerchantStatus(props: { submerchant: Submerchant }) {
  return (
    <>
      <Badge value={props.submerchant.status} />
      {props.submerchant.blocked && (
        <>
          {' '}
          <Badge value="blocked" />
        </>
      )}
    </>
  );
}

export const SUBMERCHANT_STATUSES = ['pending', 'pending_review', 'active', 'rejected'] as const;

/** A filtered, paged list of submerchants: the merchant's own (`/v1/submerchants`) or the operator's every one. */
export function SubmerchantList(props: { source: string; href: (id: string) => string }) {
  const [list, setList] = useState<ListState>(EMPTY_LIST);
  const submerchants = useLoad(() => get<Submerchant[]>(`${props.source}${query({ ...list })}`), [list]);
  return (
    <>
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
              <Link href={props.href(submerchant.id)}>{submerchant.trade_name}</Link>
            </td>
            <td>{submerchant.tax_id}</td>
            <td>
              <SubmerchantStatus submerchant={submerchant} />
            </td>
            <td>{formatTime(submerchant.created_at)}</td>
          </tr>
        )}
      />
    </>
  );
}

/** Everything about a submerchant, shared by the merchant's page and the operator's review page. */
export function SubmerchantView(props: {
  detail: SubmerchantDetail;
  names?: ActorNames;
  documentActions?: (document: SubmerchantDocument) => ComponentChildren;
}) {
  const d = props.detail;
  const representative = (id: string | null) =>
    id ? (d.legal_representatives.find((rep) => rep.id === id)?.name ?? id) : t.submerchants.company;
  return (
    <>
      <Facts
        items={[
          [t.common.status, <SubmerchantStatus key="s" submerchant={d} />],
          [t.submerchants.legalName, d.legal_name],
          [t.submerchants.taxId, `${d.tax_id} (${d.entity_type === 'pj' ? 'CNPJ' : 'CPF'})`],
          [t.submerchants.contact, `${d.email} · ${d.phone}`],
          [t.submerchants.business, d.business_type],
          [t.submerchants.mcc, d.mcc],
          [t.submerchants.averageTicket, d.average_ticket === null ? null : formatMoney(d.average_ticket)],
          [t.submerchants.monthlyRevenue, d.monthly_revenue === null ? null : formatMoney(d.monthly_revenue)],
          [t.submerchants.submittedAt, d.submitted_at ? formatTime(d.submitted_at) : null],
          [t.submerchants.rejectionReason, d.rejection_reason],
          [
            t.submerchants.blocked,
            d.blocked_at ? `${formatTime(d.blocked_at)} · ${d.block_reason ?? ''}` : null,
          ],
        ]}
      />
      <h2>{t.submerchants.requirements}</h2>
      {d.requirements.items.length === 0 ? (
        <p class="ok">{t.submerchants.ready}</p>
      ) : (
        <ul class="checklist">
          {d.requirements.items.map((item, index) => (
            <li key={`${item.code}-${index}`}>
              <strong>{requirementLabel(item.code)}</strong>: {item.message}
            </li>
          ))}
        </ul>
      )}
      <h2>{t.submerchants.representatives}</h2>
      {d.legal_representatives.length === 0 ? (
        <p>{t.submerchants.noneYet}</p>
      ) : (
        <Table
          caption={t.submerchants.representatives}
          head={[
            t.submerchants.repHead.name,
            t.submerchants.repHead.document,
            t.submerchants.repHead.role,
            t.submerchants.repHead.share,
            t.submerchants.repHead.admin,
          ]}
        >
          {d.legal_representatives.map((rep) => (
            <tr key={rep.id}>
              <td>{rep.name}</td>
              <td>{rep.document}</td>
              <td>{rep.role ?? '—'}</td>
              <td>
                {rep.participation_percentage === null
                  ? '—'
                  : formatRatio(rep.participation_percentage / 100)}
              </td>
              <td>{rep.is_admin ? t.common.yes : t.common.no}</td>
            </tr>
          ))}
        </Table>
      )}
      <h2>{t.submerchants.documents}</h2>
      {d.documents.length === 0 ? (
        <p>{t.submerchants.noneYet}</p>
      ) : (
        <Table
          caption={t.submerchants.documents}
          head={[
            t.submerchants.docHead.document,
            t.submerchants.docHead.of,
            t.submerchants.docHead.status,
            t.submerchants.docHead.file,
            ...(props.documentActions ? [t.submerchants.docHead.decision] : []),
          ]}
        >
          {d.documents.map((doc) => (
            <tr key={doc.id} data-document={doc.id}>
              <td>
                {documentType(doc.type)}
                {doc.number && <small class="muted"> {doc.number}</small>}
              </td>
              <td>{representative(doc.legal_representative_id)}</td>
              <td>
                <Badge value={doc.status} />
                {doc.rejection_reason && <small> {doc.rejection_reason}</small>}
              </td>
              <td>
                <a href={doc.file_url} target="_blank" rel="noopener noreferrer">
                  {doc.file_name}
                </a>
              </td>
              {props.documentActions && <td>{props.documentActions(doc)}</td>}
            </tr>
          ))}
        </Table>
      )}
      <h2>{t.submerchants.addresses}</h2>
      {d.addresses.length === 0 ? (
        <p>{t.submerchants.noneYet}</p>
      ) : (
        <ul>
          {d.addresses.map((address) => (
            <li key={address.id}>
              {address.street}, {address.number}
              {address.complement ? ` ${address.complement}` : ''} · {address.neighborhood} · {address.city}/
              {address.state} · {address.zip_code} ({address.type}
              {address.is_primary ? t.submerchants.primary : ''})
            </li>
          ))}
        </ul>
      )}
      <h2>{t.submerchants.statusHistory}</h2>
      <History entries={d.status_history} names={props.names} caption={t.submerchants.statusHistory} />
    </>
  );
}
