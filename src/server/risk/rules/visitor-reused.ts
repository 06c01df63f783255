import { riskRule } from '../types.js';

export const visitorReused = riskRule({
  code: 'VISITOR_REUSED',
  description:
    "The device's visitor id was reported, within the linking window (24 hours by default), from another " +
    "browser engine or operating system: one device's id carried by another client (a replayed or copied report).",
  applies: ({ history }) => history.visitor?.otherDevice === true,
});
