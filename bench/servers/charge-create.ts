import { startChargeServer } from '../lib/charge-server.js';

// POST /v1/charges, one installment, no split: bench/lib/charge-server.ts.
await startChargeServer();
