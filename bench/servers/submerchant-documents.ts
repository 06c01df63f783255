import { randomUUID } from 'node:crypto';
import { documentSlot } from '../../src/server/submerchants/document-types.js';
import { documentBody, seedSubmerchant } from '../../test/helpers/submerchants.js';
import { basic, insert, startWriteServer, update } from '../lib/write-server.js';

// Our POST /v1/submerchants/:id/documents (secret key, validation, idempotency hooks, one transaction: the new
// document's first status change, then under the submerchant's lock: retire the slot's current document and insert
// the new one (one statement on PostgreSQL), the `document.created` event) against the same writes in one
// transaction through prepared statements (lock, retire, insert, status change, event), and a bare route answering
// the same JSON. Every request sends the company's social contract again, so each replaces the one before, as a
// merchant re-sending a document does. Ours stores the file's URL and metadata, not its bytes; so does the reference.
const type = 'social_contract';
const slot = documentSlot(type, null);
let submerchantId = '';

await startWriteServer({
  route: '/v1/submerchants/:id/documents',
  headers: (merchant) => ({ authorization: basic(merchant.secretKey), 'content-type': 'application/json' }),
  setup: async ({ app, merchant }) => {
    ({ id: submerchantId } = await seedSubmerchant(app, merchant, { representatives: 1, documents: 7 }));
  },
  request: async () => ({
    path: `/v1/submerchants/${submerchantId}/documents`,
    body: JSON.stringify(documentBody(type)),
  }),
  referenceWrites: ({ merchantId, params, body, answer, now }) => {
    const id = randomUUID();
    const at = now.toISOString();
    const sent = body as {
      number: string;
      file_url: string;
      file_name: string;
      file_size: number;
      mime_type: string;
    };
    return [
      update('submerchants', { updated_at: at }, { id: params.id, merchant_id: merchantId }),
      update(
        'submerchant_documents',
        { replaced_at: at, updated_at: at },
        { submerchant_id: params.id, slot },
        { text: 'replaced_at is null', values: [] },
      ),
      insert('submerchant_documents', {
        id,
        submerchant_id: params.id,
        legal_representative_id: null,
        type,
        slot,
        number: sent.number,
        file_url: sent.file_url,
        file_name: sent.file_name,
        file_size: sent.file_size,
        mime_type: sent.mime_type,
        expires_at: null,
        notes: null,
        status: 'pending',
        rejection_reason: null,
        reviewed_at: null,
        replaced_at: null,
        replaces_document_id: null,
        created_at: at,
        updated_at: at,
      }),
      insert('submerchant_status_changes', {
        id: randomUUID(),
        submerchant_id: params.id,
        subject_type: 'document',
        subject_id: id,
        seq: 1,
        from_status: null,
        to_status: 'pending',
        actor: 'merchant',
        actor_id: merchantId,
        reason: null,
        created_at: at,
      }),
      insert('events', {
        id: randomUUID(),
        merchant_id: merchantId,
        type: 'document.created',
        data: JSON.stringify({ document: { ...answer.data, id } }),
        created_at: at,
      }),
    ];
  },
});
