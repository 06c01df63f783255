import type { StatusHistoryEntry } from './status-history.js';

/** A status change as the interface shows it: `reason` only when one was given. */
export function presentStatusChange(entry: StatusHistoryEntry) {
  return {
    from: entry.from,
    to: entry.to,
    actor: entry.actor,
    actor_id: entry.actorId,
    ...(entry.reason !== null && { reason: entry.reason }),
    at: entry.at,
  };
}

export const presentStatusHistory = (entries: readonly StatusHistoryEntry[]) =>
  entries.map(presentStatusChange);
