import { type RequestOptions, segment, type Transport } from '../http.js';
import { ListRequest } from '../list.js';
import type {
  Bank,
  BankAccount,
  BankAccountCreateParams,
  BankAccountListParams,
  BankListParams,
  ListPage,
} from '../types.js';

/** Brazil's banks: what a bank account's `bank` (COMPE code) names. */
export class Banks {
  constructor(private readonly transport: Transport) {}

  /**
   * One page, by COMPE code; `search` matches name, short name and codes. A page, not a walk: banks have no id to
   * walk by, and the whole list is a few pages of `limit: 100`.
   */
  list(params: BankListParams = {}): Promise<ListPage<Bank>> {
    return this.transport.page<Bank>('/v1/banks', params);
  }

  /** By its 3-digit COMPE or 8-digit ISPB code. */
  get(code: string): Promise<Bank> {
    return this.transport.data({ method: 'GET', path: `/v1/banks/${segment(code)}` });
  }
}

type DeletedBankAccount = { id: string; deleted: true };

/** One owner's bank accounts, at `base` (your account's, or a submerchant's). */
class OwnerBankAccounts {
  constructor(
    private readonly transport: Transport,
    private readonly base: string,
  ) {}

  /** Pending verification; the owner's first account becomes its default. Sent with an Idempotency-Key. */
  create(params: BankAccountCreateParams, options: RequestOptions = {}): Promise<BankAccount> {
    return this.transport.create(this.base, params, options);
  }

  list(params: BankAccountListParams = {}): ListRequest<BankAccount, BankAccountListParams> {
    return new ListRequest((query) => this.transport.page<BankAccount>(this.base, query), params);
  }

  get(id: string): Promise<BankAccount> {
    return this.transport.data({ method: 'GET', path: `${this.base}/${segment(id)}` });
  }

  delete(id: string): Promise<DeletedBankAccount> {
    return this.transport.data({ method: 'DELETE', path: `${this.base}/${segment(id)}` });
  }

  setDefault(id: string): Promise<BankAccount> {
    return this.transport.data({ method: 'POST', path: `${this.base}/${segment(id)}/default` });
  }
}

/**
 * Bank accounts money is paid out to: yours (`vigia.bankAccounts.create(params)`) or a submerchant's
 * (`vigia.bankAccounts.forSubmerchant(id).create(params)`).
 */
export class BankAccounts extends OwnerBankAccounts {
  constructor(private readonly transportOfAll: Transport) {
    super(transportOfAll, '/v1/account/bank-accounts');
  }

  forSubmerchant(submerchantId: string): OwnerBankAccounts {
    return new OwnerBankAccounts(
      this.transportOfAll,
      `/v1/submerchants/${segment(submerchantId)}/bank-accounts`,
    );
  }

  /** Test mode only (sk_test_ keys): verify one of your or your submerchants' accounts, as the operator would. */
  verifyInTestMode(id: string): Promise<BankAccount> {
    return this.transportOfAll.data({ method: 'POST', path: `/v1/test/bank-accounts/${segment(id)}/verify` });
  }
}
