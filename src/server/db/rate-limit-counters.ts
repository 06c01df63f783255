import type pg from 'pg';
import { type RateLimiterAbstract, RateLimiterMemory, RateLimiterPostgres } from 'rate-limiter-flexible';
import type { Store } from './connect.js';

// Limits differ per merchant and category, so the counter itself never refuses: callers compare the
// consumed count with the limit that applies to them.
const UNBOUNDED = Number.MAX_SAFE_INTEGER;

/**
 * Fixed-window request counters: in memory with SQLite (one process), in PostgreSQL otherwise so that every
 * instance sharing the database shares the counters.
 */
export async function openRateLimitCounters(
  store: Pick<Store<unknown>, 'pgPool'>,
  windowSeconds: number,
): Promise<RateLimiterAbstract> {
  if (!store.pgPool) return new RateLimiterMemory({ points: UNBOUNDED, duration: windowSeconds });
  const pool = store.pgPool;
  return new Promise((resolve, reject) => {
    const limiter: RateLimiterPostgres = new RateLimiterPostgres(
      {
        storeClient: pool,
        storeType: 'pool',
        tableName: 'rate_limit_counters',
        points: UNBOUNDED,
        duration: windowSeconds,
        clearExpiredByTimeout: true,
      },
      (error?: Error) => (error ? reject(error) : resolve(limiter)),
    );
  });
}

/** A key's count in its current window. */
export interface WindowCount {
  /** Requests counted in the window, this one included. */
  consumed: number;
  msBeforeNext: number;
}

/**
 * The API's request counters: one request counted against a key whose limit is known. A count made from what
 * this process holds is answered at once (no promise: every request of every route counts itself here).
 */
export interface RequestCounters {
  consume(key: string, limit: number): WindowCount | Promise<WindowCount>;
  /** The key's count without counting (CORS preflights); null when no window is open. */
  get(key: string): Promise<WindowCount | null>;
  readonly windowSeconds: number;
}

/**
 * The request counters of a store: in memory with SQLite; with PostgreSQL, counted in the shared table through
 * leases (`leasedCounters`), so that a request rarely waits for a round trip to count itself.
 */
export async function openRequestCounters(
  store: Pick<Store<unknown>, 'pgPool'>,
  windowSeconds: number,
): Promise<RequestCounters> {
  return store.pgPool ? leasedCounters(store.pgPool, windowSeconds) : memoryCounters(windowSeconds);
}

const SWEEP_MS = 5 * 60_000;

/**
 * Fixed windows counted in this process (SQLite: one process serves the database). A key's window opens with
 * its first request; windows that ended are dropped by a periodic sweep.
 */
export function memoryCounters(windowSeconds: number): RequestCounters {
  const windowMs = windowSeconds * 1000;
  const windows = new Map<string, { consumed: number; expire: number }>();
  const sweep = setInterval(() => {
    const now = Date.now();
    for (const [key, window] of windows) if (window.expire <= now) windows.delete(key);
  }, SWEEP_MS);
  sweep.unref();
  return {
    windowSeconds,
    consume(key) {
      const now = Date.now();
      let window = windows.get(key);
      if (!window || window.expire <= now) {
        window = { consumed: 0, expire: now + windowMs };
        windows.set(key, window);
      }
      window.consumed++;
      return { consumed: window.consumed, msBeforeNext: window.expire - now };
    },
    async get(key) {
      const now = Date.now();
      const window = windows.get(key);
      return window && window.expire > now
        ? { consumed: window.consumed, msBeforeNext: window.expire - now }
        : null;
    },
  };
}

/** A lease takes this share of what is left of the limit (at least one point, at most `MAX_LEASE`). */
const LEASE_SHARE = 1 / 16;
const MAX_LEASE = 1_000;

/** What this instance knows of a key's window, and the points it claimed there but has not spent yet. */
interface KeyState {
  /** When the window ends (ms since epoch); 0 before the first claim. */
  expire: number;
  /** The window's count at the last claim, capped at the limit: the other instances' spending is known then. */
  seen: number;
  unspent: number;
  limit: number;
  /** Requests of one key on one instance take their turn, so that one claim serves those behind it. */
  turn: Promise<unknown>;
  /** Requests waiting their turn (a claim is out): a new request queues behind them. */
  waiting: number;
}

/**
 * PostgreSQL request counters that never let a window pass its limit, counting on the shared table
 * (`rate_limit_counters`, the columns rate-limiter-flexible made) in leases: a request that finds no
 * point left here claims a share of what is left of the limit in one atomic UPDATE (1/16 of it, so a few points
 * when far from the limit, one point near it) and the next requests spend the rest without a round trip. Points
 * a claim takes past the limit are not spent: the claim knows the count before it, so exactly `limit` points of
 * a window are ever spent, across any number of instances. The cost: points one instance holds unspent (at most
 * 1/16 of what was left when it claimed) are counted as used for the others until the window ends, and the
 * `X-RateLimit-Remaining` a request sees counts them as used. A lowered limit gives this instance's unspent
 * points back at once.
 */
export function leasedCounters(pool: pg.Pool, windowSeconds: number): RequestCounters {
  const windowMs = windowSeconds * 1000;
  const keys = new Map<string, KeyState>();
  const claim = async (key: string, lease: number, now: number) => {
    const { rows } = await pool.query<{ points: number; expire: string }>(
      `insert into rate_limit_counters as c (key, points, expire) values ($1, $2::integer, $3::bigint + $4::bigint)
       on conflict (key) do update set
         points = case when c.expire <= $3::bigint then excluded.points else c.points + excluded.points end,
         expire = case when c.expire <= $3::bigint then excluded.expire else c.expire end
       returning points, expire`,
      [key, lease, now, windowMs],
    );
    return { points: rows[0]!.points, expire: Number(rows[0]!.expire) };
  };

  const spend = async (key: string, state: KeyState, limit: number): Promise<WindowCount> => {
    const now = Date.now();
    if (state.expire <= now) {
      state.unspent = 0;
      state.seen = 0;
    } else if (limit < state.limit && state.unspent > 0) {
      // A lowered limit: the points held here were claimed under the old one; give them back, so that the
      // window counts only the requests made.
      await pool.query(
        'update rate_limit_counters set points = points - $2::integer where key = $1 and expire = $3::bigint',
        [key, state.unspent, state.expire],
      );
      state.seen = Math.max(0, state.seen - state.unspent);
      state.unspent = 0;
    }
    state.limit = limit;
    if (state.unspent === 0) {
      const lease = Math.max(1, Math.min(MAX_LEASE, Math.floor((limit - state.seen) * LEASE_SHARE)));
      const { points, expire } = await claim(key, lease, now);
      state.expire = expire;
      state.seen = Math.min(points, limit);
      // The points of this claim that fit under the limit: the count before it was `points - lease`.
      state.unspent = Math.max(0, Math.min(lease, limit - (points - lease)));
      if (state.unspent === 0) return { consumed: points, msBeforeNext: expire - now };
    }
    state.unspent--;
    return { consumed: state.seen - state.unspent, msBeforeNext: state.expire - now };
  };

  const sweep = setInterval(() => {
    const now = Date.now();
    for (const [key, state] of keys) if (state.expire <= now) keys.delete(key);
    pool.query('delete from rate_limit_counters where expire < $1', [now]).catch(() => {});
  }, SWEEP_MS);
  sweep.unref();

  return {
    windowSeconds,
    consume(key, limit) {
      let state = keys.get(key);
      if (!state) {
        state = { expire: 0, seen: 0, unspent: 0, limit, turn: Promise.resolve(), waiting: 0 };
        keys.set(key, state);
      }
      const current = state;
      const now = Date.now();
      // The common case: a point held here, in a window still open, under a limit not lowered, nobody queued.
      if (current.waiting === 0 && current.unspent > 0 && current.expire > now && limit >= current.limit) {
        current.limit = limit;
        current.unspent--;
        return { consumed: current.seen - current.unspent, msBeforeNext: current.expire - now };
      }
      current.waiting++;
      const result = current.turn.then(() => spend(key, current, limit));
      current.turn = result.catch(() => {}).finally(() => current.waiting--);
      return result;
    },
    async get(key) {
      const now = Date.now();
      const { rows } = await pool.query<{ points: number; expire: string }>(
        'select points, expire from rate_limit_counters where key = $1 and expire > $2',
        [key, now],
      );
      const row = rows[0];
      if (!row) return null;
      // What this instance holds unspent is not used yet (as `consume` counts it).
      const state = keys.get(key);
      const held = state && state.expire > now ? state : null;
      const consumed = held ? Math.min(row.points, held.limit) - held.unspent : row.points;
      return { consumed, msBeforeNext: Number(row.expire) - now };
    },
  };
}
