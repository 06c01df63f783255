import { segment, type Transport } from '../http.js';
import { ListRequest } from '../list.js';
import type { Receivable, ReceivableListParams } from '../types.js';

/** Receivables: each installment of each charge, for each recipient, and when it is paid. */
export class Receivables {
  constructor(private readonly transport: Transport) {}

  get(id: string): Promise<Receivable> {
    return this.transport.data({ method: 'GET', path: `/v1/receivables/${segment(id)}` });
  }

  /** Filters: `status`, `submerchant_id`, `charge_id`, `payment_date_from`, `payment_date_to`, and the usual. */
  list(params: ReceivableListParams = {}): ListRequest<Receivable, ReceivableListParams> {
    return new ListRequest((query) => this.transport.page<Receivable>('/v1/receivables', query), params);
  }
}
