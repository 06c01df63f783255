import { segment, type Transport } from '../http.js';
import { ListRequest } from '../list.js';
import type { Wallet, WalletEntry, WalletEntryListParams, WalletListParams } from '../types.js';

/** Wallets: your balances and your submerchants', and the ledger entries behind them. */
export class Wallets {
  constructor(private readonly transport: Transport) {}

  get(id: string): Promise<Wallet> {
    return this.transport.data({ method: 'GET', path: `/v1/wallets/${segment(id)}` });
  }

  list(params: WalletListParams = {}): ListRequest<Wallet, WalletListParams> {
    return new ListRequest((query) => this.transport.page<Wallet>('/v1/wallets', query), params);
  }

  /** The wallet's entries, newest first, each with its source and the balance after it. */
  entries(id: string, params: WalletEntryListParams = {}): ListRequest<WalletEntry, WalletEntryListParams> {
    return new ListRequest(
      (query) => this.transport.page<WalletEntry>(`/v1/wallets/${segment(id)}/entries`, query),
      params,
    );
  }
}
