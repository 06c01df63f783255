import { type CardAcquirer, simulatedAcquirer } from '../../src/server/charges/acquirer.js';

export interface AcquirerCall {
  operation: string;
  authorizationId?: string;
  amount?: number;
  idempotencyKey: string;
}

/**
 * The simulated acquirer, with every call it receives written down (what a provider would have been asked).
 * `delayMs` makes capture and cancel take that long, as a network round trip does: races then overlap.
 */
export function recordingAcquirer(hashKey: string, options: { delayMs?: number } = {}) {
  const inner = simulatedAcquirer(hashKey);
  const calls: AcquirerCall[] = [];
  const pause = () => new Promise((resolve) => setTimeout(resolve, options.delayMs ?? 0));
  const acquirer: CardAcquirer = {
    async authorize(request) {
      const answer = await inner.authorize(request);
      calls.push({ operation: 'authorize', amount: request.amount, idempotencyKey: request.idempotencyKey });
      return answer;
    },
    async capture(request) {
      await pause();
      calls.push({ operation: 'capture', ...request });
    },
    async cancel(request) {
      await pause();
      calls.push({ operation: 'cancel', ...request });
    },
    async refund(request) {
      calls.push({ operation: 'refund', ...request });
    },
  };
  return { acquirer, calls };
}
