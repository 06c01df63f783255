import { businessRule, type ErrorCatalogue, invalidState, testModeOnly } from '../errors.js';

/** The disputes' own refusals (TEST_MODE_ONLY, shared by every /v1/test route, is a general code). */
export const DISPUTES_ERRORS = {
  DISPUTE_EVIDENCE_DEADLINE_PASSED: {
    status: 422,
    meaning: "The dispute's evidence_due_by has passed: the network no longer accepts evidence.",
    action:
      'Nothing can be submitted now; the dispute will close as lost. Answer disputes before evidence_due_by.',
  },
  CHARGE_NOT_DISPUTABLE: {
    status: 422,
    meaning: 'Only a captured charge can be disputed (nothing was taken from the card otherwise).',
    action: 'Open the test dispute on a captured charge.',
  },
} as const satisfies ErrorCatalogue;

export const evidenceDeadlinePassed = (dueBy: string) =>
  businessRule(
    'DISPUTE_EVIDENCE_DEADLINE_PASSED',
    `The evidence deadline of this dispute passed at ${dueBy}: the network no longer accepts evidence.`,
  );

export const chargeNotDisputable = (status: string) =>
  businessRule(
    'CHARGE_NOT_DISPUTABLE',
    `Only a captured charge can be disputed; this charge is ${status}, so nothing was taken from the card.`,
  );

export const evidenceAlreadySubmitted = () =>
  invalidState(
    'Evidence was already submitted for this dispute (it is accepted once): the network is reviewing it.',
  );

export const disputeClosed = (status: string) =>
  invalidState(`This dispute is closed (${status}): it takes no more evidence or decisions.`);

export const chargeAlreadyDisputed = () => invalidState('This charge already has a dispute: one per charge.');

export const simulatedNetworkOnly = () =>
  testModeOnly('live disputes are opened and decided by the card network.');
