/**
 * In-process nudge from `recordEvent` to the delivery workers of this process, so a fresh delivery goes out
 * at once instead of at the next poll. Only a hint: workers in other processes find it by polling.
 */
type Listener = () => void;

const listeners = new Set<Listener>();

export function onDeliveriesQueued(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function deliveriesQueued(): void {
  for (const listener of listeners) listener();
}
