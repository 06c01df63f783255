/** Limits that keep one report far below the service's 32 KiB signals limit. */
export const LIMITS = { string: 200, items: 16, keys: 24, depth: 3 } as const;

/** A JSON-safe copy of `value` with long strings cut and deep or wide structures trimmed. */
export function boundValue(value: unknown, depth = 0): unknown {
  switch (typeof value) {
    case 'string':
      return value.length > LIMITS.string ? value.slice(0, LIMITS.string) : value;
    case 'number':
      return Number.isFinite(value) ? value : null;
    case 'boolean':
      return value;
    case 'object': {
      if (value === null) return null;
      if (depth >= LIMITS.depth) return undefined;
      if (Array.isArray(value))
        return value.slice(0, LIMITS.items).map((item) => boundValue(item, depth + 1) ?? null);
      const out: Record<string, unknown> = {};
      for (const key of Object.keys(value).slice(0, LIMITS.keys)) {
        const bounded = boundValue((value as Record<string, unknown>)[key], depth + 1);
        if (bounded !== undefined) out[key] = bounded;
      }
      return out;
    }
    default:
      return undefined;
  }
}

/**
 * Picks `keys` from provider components shaped `{ value }` (FingerprintJS) or `{ state: 0, value }` (BotD);
 * components that failed (`{ error }`) are left out.
 */
export function selectComponents(
  components: Readonly<Record<string, unknown>> | undefined,
  keys: readonly string[],
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (!components) return out;
  for (const key of keys) {
    const component = components[key] as { value?: unknown; state?: number } | undefined;
    if (!component || !('value' in component) || (component.state !== undefined && component.state !== 0))
      continue;
    const bounded = boundValue(component.value);
    if (bounded !== undefined) out[key] = bounded;
  }
  return out;
}
