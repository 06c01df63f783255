import type { ComponentChildren } from 'preact';
import { Badge, Facts, formatMoney, formatTime, Table } from '../ui.js';

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

/** Who made a change: the merchant, or the operator user's e-mail when known. */
export type ActorNames = Record<string, string>;

function actorLabel(entry: HistoryEntry, names: ActorNames): string {
  if (entry.actor === 'merchant') return 'merchant';
  return `operator ${names[entry.actor_id] ?? entry.actor_id}`;
}

export function History(props: { entries: HistoryEntry[]; names?: ActorNames; caption: string }) {
  return (
    <Table caption={props.caption} head={['When', 'Change', 'By', 'Reason']}>
      {props.entries.map((entry) => (
        <tr key={`${entry.at}-${entry.to}`}>
          <td>{formatTime(entry.at)}</td>
          <td>
            {entry.from ?? 'new'} → {entry.to}
          </td>
          <td>{actorLabel(entry, props.names ?? {})}</td>
          <td>{entry.reason ?? ''}</td>
        </tr>
      ))}
    </Table>
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
    id ? (d.legal_representatives.find((rep) => rep.id === id)?.name ?? id) : 'company';
  return (
    <>
      <Facts
        items={[
          ['Status', <Badge key="s" value={d.status} />],
          ['Legal name', d.legal_name],
          ['Tax id', `${d.tax_id} (${d.entity_type === 'pj' ? 'CNPJ' : 'CPF'})`],
          ['Contact', `${d.email} · ${d.phone}`],
          ['Business', d.business_type],
          ['MCC', d.mcc],
          ['Average ticket', d.average_ticket === null ? null : formatMoney(d.average_ticket)],
          ['Monthly revenue', d.monthly_revenue === null ? null : formatMoney(d.monthly_revenue)],
          ['Submitted', d.submitted_at ? formatTime(d.submitted_at) : null],
          ['Rejection reason', d.rejection_reason],
        ]}
      />
      <h2>Requirements</h2>
      {d.requirements.items.length === 0 ? (
        <p class="ok">✓ Nothing missing: ready for review.</p>
      ) : (
        <ul class="checklist">
          {d.requirements.items.map((item, index) => (
            <li key={`${item.code}-${index}`}>
              <strong>{item.code.replaceAll('_', ' ').toLowerCase()}</strong>: {item.message}
            </li>
          ))}
        </ul>
      )}
      <h2>Legal representatives</h2>
      {d.legal_representatives.length === 0 ? (
        <p>None yet.</p>
      ) : (
        <Table caption="Legal representatives" head={['Name', 'Document', 'Role', 'Share', 'Admin']}>
          {d.legal_representatives.map((rep) => (
            <tr key={rep.id}>
              <td>{rep.name}</td>
              <td>{rep.document}</td>
              <td>{rep.role ?? '—'}</td>
              <td>{rep.participation_percentage === null ? '—' : `${rep.participation_percentage}%`}</td>
              <td>{rep.is_admin ? 'yes' : 'no'}</td>
            </tr>
          ))}
        </Table>
      )}
      <h2>Documents</h2>
      {d.documents.length === 0 ? (
        <p>None yet.</p>
      ) : (
        <Table
          caption="Documents"
          head={['Document', 'Of', 'Status', 'File', ...(props.documentActions ? ['Decision'] : [])]}
        >
          {d.documents.map((doc) => (
            <tr key={doc.id} data-document={doc.id}>
              <td>
                {doc.type.replaceAll('_', ' ')}
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
      <h2>Addresses</h2>
      {d.addresses.length === 0 ? (
        <p>None yet.</p>
      ) : (
        <ul>
          {d.addresses.map((address) => (
            <li key={address.id}>
              {address.street}, {address.number}
              {address.complement ? ` ${address.complement}` : ''} · {address.neighborhood} · {address.city}/
              {address.state} · {address.zip_code} ({address.type}
              {address.is_primary ? ', primary' : ''})
            </li>
          ))}
        </ul>
      )}
      <h2>Status history</h2>
      <History entries={d.status_history} names={props.names} caption="Status history" />
    </>
  );
}
