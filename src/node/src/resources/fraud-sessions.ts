import { type CallOptions, segment, type Transport } from '../http.js';
import type { FraudSession } from '../types.js';

/** Fraud sessions are opened by the browser SDK; the server reads what they collected. */
export class FraudSessions {
  constructor(private readonly transport: Transport) {}

  get(id: string, options?: CallOptions): Promise<FraudSession> {
    return this.transport.data({ method: 'GET', path: `/v1/fraud/sessions/${segment(id)}`, options });
  }
}
