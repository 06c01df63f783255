import { riskRule } from '../types.js';

/**
 * FingerprintJS's visitor id is a hash of every component, so a genuine id always comes with the same stable
 * components: the same id with others (at any merchant, within the graph's window) is a report edited by hand,
 * a real buyer's id pasted onto another device's components or the reverse. Which of the two charges is the
 * forgery cannot be told, hence review, not decline (policy.ts). A report without components cannot be compared.
 * When this merchant already saw the id from another engine or OS (VISITOR_REUSED), the other components are that
 * same fact measured again: it is counted once, so that whoever holds a buyer's id cannot push the buyer's
 * charge from review to decline with it.
 */
export const visitorIdForged = riskRule({
  code: 'VISITOR_ID_FORGED',
  description:
    'This visitor id was seen on the platform with other device components: a genuine id is computed from its components, so the report was edited.',
  applies: ({ history }) => history.graph?.otherComponents === true && history.visitor?.otherDevice !== true,
});
