import type { VigiaApp } from '../../src/server/app.js';
import { withCheckDigits } from '../../src/server/core/tax-id.js';
import { updateMerchantSettings } from '../../src/server/merchants/service.js';
// Not ./app.js (which imports vitest): the submerchant-read benchmark seeds with this module outside vitest.
import { createTestMerchant, type TestMerchant } from './merchants.js';

// Random start, then a counter: distinct tax ids within a process, unlikely to meet another file's.
let sequence = 10_000_000 + Math.floor(Math.random() * 70_000_000);
function nextBase(digits: number): string {
  const base = String(++sequence).padStart(digits, '2');
  return /^(\d)\1*$/.test(base) ? nextBase(digits) : base;
}

/** A valid CNPJ (14 digits) not handed out before in this process. */
export const newCnpj = (): string => withCheckDigits(`${nextBase(8)}0001`, 'cnpj');

/** A valid CPF (11 digits) not handed out before in this process. */
export const newCpf = (): string => withCheckDigits(nextBase(9), 'cpf');

/** A merchant whose rate limits will not get in the way of a test that makes many calls. */
export async function createBusyMerchant(app: VigiaApp, name = 'Marketplace'): Promise<TestMerchant> {
  const merchant = await createTestMerchant(app, { name });
  await updateMerchantSettings(
    app.store.db,
    merchant.id,
    { rateLimits: { queries: 1_000_000, default: 1_000_000 } },
    app.clock(),
  );
  return merchant;
}

export function submerchantBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    entity_type: 'pj',
    tax_id: newCnpj(),
    trade_name: 'Loja do Zé',
    legal_name: 'Zé Comércio de Roupas LTDA',
    email: 'financeiro@lojadoze.com.br',
    phone: '11987654321',
    business_type: 'retail',
    product_categories: ['clothing', 'shoes'],
    average_ticket: 12_990,
    monthly_revenue: 5_000_000,
    cnaes: [
      { code: '4781-4/00', description: 'Comércio varejista de artigos do vestuário', is_primary: true },
    ],
    ...overrides,
  };
}

export function personSubmerchantBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return submerchantBody({
    entity_type: 'pf',
    tax_id: newCpf(),
    trade_name: 'Ateliê da Maria',
    legal_name: 'Maria da Silva',
    birth_date: '1985-04-12',
    mother_name: 'Ana da Silva',
    ...overrides,
  });
}

export function representativeBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    name: 'José da Silva',
    document: newCpf(),
    birth_date: '1980-01-31',
    mother_name: 'Joana da Silva',
    email: 'jose@lojadoze.com.br',
    phone: '11912345678',
    role: 'legal_representative',
    qualification: 'OWNER-ADMIN',
    participation_percentage: 50,
    is_admin: true,
    ...overrides,
  };
}

export function documentBody(type: string, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    type,
    number: '123456789',
    file_url: `https://files.example.com/${type}.pdf`,
    file_name: `${type}.pdf`,
    file_size: 204_800,
    mime_type: 'application/pdf',
    ...overrides,
  };
}

export function addressBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    street: 'Avenida Paulista',
    number: '1578',
    complement: 'Conjunto 42',
    neighborhood: 'Bela Vista',
    city: 'São Paulo',
    state: 'SP',
    zip_code: '01310-200',
    ...overrides,
  };
}

/** POSTs through the API and returns the response's `data`, failing loudly on an unexpected status. */
export async function post(
  app: VigiaApp,
  merchant: TestMerchant,
  url: string,
  payload: Record<string, unknown>,
  expected: number[] = [200, 201],
  // biome-ignore lint/suspicious/noExplicitAny: tests read response fields directly
): Promise<Record<string, any>> {
  const response = await app.inject({ method: 'POST', url, headers: merchant.secret, payload });
  if (!expected.includes(response.statusCode)) {
    throw new Error(`POST ${url} answered ${response.statusCode}: ${response.body}`);
  }
  return response.json().data;
}

export interface SeededSubmerchant {
  id: string;
  representativeIds: string[];
  documentIds: string[];
  addressIds: string[];
}

const COMPANY_TYPES = ['social_contract', 'cnpj_card', 'proof_of_residence_company'];
const PARTNER_TYPES = [
  'partner_front_id',
  'partner_back_id',
  'partner_selfie_with_id',
  'partner_proof_of_residence',
];

/**
 * A company submerchant with `representatives` legal representatives (default 3), `documents` current
 * documents (default 12: the 3 company ones, then the 4 partner ones of each representative in turn) and
 * `addresses` addresses (default 2, the first primary), created through the HTTP API as a merchant would.
 * The benchmark of GET /v1/submerchants/:id uses the defaults.
 */
export async function seedSubmerchant(
  app: VigiaApp,
  merchant: TestMerchant,
  counts: { representatives?: number; documents?: number; addresses?: number } = {},
): Promise<SeededSubmerchant> {
  const { representatives = 3, documents = 12, addresses = 2 } = counts;
  const submerchant = await post(app, merchant, '/v1/submerchants', submerchantBody());
  const base = `/v1/submerchants/${submerchant.id}`;
  const representativeIds: string[] = [];
  for (let index = 0; index < representatives; index++) {
    const representative = await post(
      app,
      merchant,
      `${base}/legal-representatives`,
      representativeBody({
        name: `Sócio ${index + 1}`,
        participation_percentage: Math.floor(100 / representatives),
      }),
    );
    representativeIds.push(representative.id);
  }
  const slots: { type: string; legal_representative_id?: string }[] = COMPANY_TYPES.map((type) => ({ type }));
  for (const id of representativeIds) {
    for (const type of PARTNER_TYPES) slots.push({ type, legal_representative_id: id });
  }
  if (documents > slots.length) {
    throw new RangeError(
      `${representatives} representatives give ${slots.length} document slots, not ${documents}`,
    );
  }
  const documentIds: string[] = [];
  for (const slot of slots.slice(0, documents)) {
    const document = await post(
      app,
      merchant,
      `${base}/documents`,
      documentBody(
        slot.type,
        slot.legal_representative_id ? { legal_representative_id: slot.legal_representative_id } : {},
      ),
    );
    documentIds.push(document.id);
  }
  const addressIds: string[] = [];
  for (let index = 0; index < addresses; index++) {
    const address = await post(
      app,
      merchant,
      `${base}/addresses`,
      addressBody({
        number: String(100 + index),
        is_primary: index === 0,
        type: index === 0 ? 'billing' : 'shipping',
      }),
    );
    addressIds.push(address.id);
  }
  return { id: submerchant.id, representativeIds, documentIds, addressIds };
}

export interface ApiResult {
  status: number;
  // biome-ignore lint/suspicious/noExplicitAny: tests read response fields directly
  body: any;
  headers: Record<string, unknown>;
}

/** Calls the API with one set of headers: `const api = client(app, merchant.secret); await api.get(url)`. */
export function client(app: VigiaApp, headers: Record<string, string>) {
  const call = async (
    method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
    url: string,
    payload?: unknown,
  ): Promise<ApiResult> => {
    const response = await app.inject({
      method,
      url,
      headers,
      ...(payload !== undefined && { payload: payload as Record<string, unknown> }),
    });
    return {
      status: response.statusCode,
      body: response.body ? response.json() : undefined,
      headers: response.headers,
    };
  };
  return {
    get: (url: string) => call('GET', url),
    post: (url: string, payload?: unknown) => call('POST', url, payload),
    patch: (url: string, payload?: unknown) => call('PATCH', url, payload),
    delete: (url: string) => call('DELETE', url),
  };
}

export type Client = ReturnType<typeof client>;
