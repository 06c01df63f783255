import type { ComponentChildren, TargetedEvent } from 'preact';
import { useCallback, useEffect, useId, useRef, useState } from 'preact/hooks';
import { type Answer, ApiError, type Pagination } from './api.js';
import { BASE, navigate } from './router.js';

// Shared pieces of every page: links, loading, lists, forms, confirmations, formats.

export function Link(props: { href: string; children: ComponentChildren; class?: string }) {
  const href = `${BASE}${props.href}`;
  const onClick = (event: MouseEvent) => {
    if (event.ctrlKey || event.metaKey || event.shiftKey || event.button !== 0) return;
    event.preventDefault();
    navigate(props.href);
  };
  return (
    <a href={href} class={props.class} onClick={onClick}>
      {props.children}
    </a>
  );
}

export interface Loaded<T> {
  answer: Answer<T> | null;
  error: ApiError | null;
  reload: () => void;
}

/** Runs `load` now and whenever `deps` change; `reload()` runs it again. */
export function useLoad<T>(load: () => Promise<Answer<T>>, deps: unknown[]): Loaded<T> {
  const [answer, setAnswer] = useState<Answer<T> | null>(null);
  const [error, setError] = useState<ApiError | null>(null);
  const [round, setRound] = useState(0);
  useEffect(() => {
    let current = true;
    setError(null);
    load().then(
      (loaded) => current && setAnswer(loaded),
      (failed: unknown) => current && setError(asApiError(failed)),
    );
    return () => {
      current = false;
    };
  }, [...deps, round]);
  return { answer, error, reload: useCallback(() => setRound((n) => n + 1), []) };
}

export const asApiError = (error: unknown): ApiError =>
  error instanceof ApiError ? error : new ApiError(0, 'ERROR', String(error));

/** Loading, error or the content. */
export function Show<T>(props: { loaded: Loaded<T>; children: (answer: Answer<T>) => ComponentChildren }) {
  const { answer, error } = props.loaded;
  if (error) return <Notice kind="error">{error.message}</Notice>;
  if (!answer) return <p class="muted">Loading…</p>;
  return <>{props.children(answer)}</>;
}

export function Notice(props: { kind: 'error' | 'success' | 'warning'; children: ComponentChildren }) {
  return (
    <div class={`notice notice-${props.kind}`} role={props.kind === 'error' ? 'alert' : 'status'}>
      {props.children}
    </div>
  );
}

/** A button that runs an action, shows it is busy, and reports the error in place. */
export function useAction(): {
  busy: boolean;
  error: ApiError | null;
  run: (action: () => Promise<unknown>) => Promise<boolean>;
} {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError | null>(null);
  const run = async (action: () => Promise<unknown>) => {
    setBusy(true);
    setError(null);
    try {
      await action();
      return true;
    } catch (failed) {
      setError(asApiError(failed));
      return false;
    } finally {
      setBusy(false);
    }
  };
  return { busy, error, run };
}

export function Page(props: { title: string; actions?: ComponentChildren; children: ComponentChildren }) {
  useEffect(() => {
    document.title = `${props.title} · Vigia dashboard`;
  }, [props.title]);
  return (
    <>
      <div class="page-head">
        <h1>{props.title}</h1>
        {props.actions && <div class="actions">{props.actions}</div>}
      </div>
      {props.children}
    </>
  );
}

/** A table that scrolls sideways on a phone; the region is focusable so a keyboard can scroll it. */
export function Table(props: { caption: string; head: string[]; children: ComponentChildren }) {
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard
    <section class="table-wrap" tabIndex={0} aria-label={props.caption}>
      <table>
        <caption class="visually-hidden">{props.caption}</caption>
        <thead>
          <tr>
            {props.head.map((name) => (
              <th scope="col" key={name}>
                {name}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>{props.children}</tbody>
      </table>
    </section>
  );
}

export function Pager(props: { pagination: Pagination | undefined; onPage: (page: number) => void }) {
  const p = props.pagination;
  if (!p || p.total === 0) return null;
  return (
    <nav class="pager" aria-label="Pages">
      <button type="button" disabled={p.page <= 1} onClick={() => props.onPage(p.page - 1)}>
        Previous
      </button>
      <span>
        Page {p.page} of {Math.max(1, p.totalPages)} · {p.total} in all
      </span>
      <button type="button" disabled={p.page >= p.totalPages} onClick={() => props.onPage(p.page + 1)}>
        Next
      </button>
    </nav>
  );
}

/** A list of the shared list scheme as a table with its pager, or a sentence when it is empty. */
export function PagedTable<T>(props: {
  loaded: Loaded<T[]>;
  caption: string;
  head: string[];
  empty: string;
  row: (item: T) => ComponentChildren;
  onPage: (page: number) => void;
}) {
  return (
    <Show loaded={props.loaded}>
      {(answer) =>
        answer.data.length === 0 ? (
          <p>{props.empty}</p>
        ) : (
          <>
            <Table caption={props.caption} head={props.head}>
              {answer.data.map(props.row)}
            </Table>
            <Pager pagination={answer.pagination} onPage={props.onPage} />
          </>
        )
      }
    </Show>
  );
}

export interface ListState {
  page: number;
  search: string;
  status: string;
  date_from: string;
  date_to: string;
}

export const EMPTY_LIST: ListState = { page: 1, search: '', status: '', date_from: '', date_to: '' };

/** The shared list scheme's filters: search, status, dates. */
export function ListFilters(props: {
  statuses: readonly string[];
  state: ListState;
  onChange: (state: ListState) => void;
  dates?: boolean;
}) {
  const [draft, setDraft] = useState(props.state);
  const field = (name: keyof ListState) => (event: Event) =>
    setDraft({ ...draft, [name]: (event.currentTarget as HTMLInputElement).value });
  const submit = (event: Event) => {
    event.preventDefault();
    props.onChange({ ...draft, page: 1 });
  };
  return (
    <form class="filters" onSubmit={submit} aria-label="Filters">
      <label>
        Search
        <input type="search" value={draft.search} onInput={field('search')} />
      </label>
      {props.statuses.length > 0 && (
        <label>
          Status
          <select value={draft.status} onChange={field('status')}>
            <option value="">Any</option>
            {props.statuses.map((status) => (
              <option key={status} value={status}>
                {status.replaceAll('_', ' ')}
              </option>
            ))}
          </select>
        </label>
      )}
      {props.dates !== false && (
        <>
          <label>
            From
            <input type="date" value={draft.date_from} onInput={field('date_from')} />
          </label>
          <label>
            To
            <input type="date" value={draft.date_to} onInput={field('date_to')} />
          </label>
        </>
      )}
      <button type="submit">Apply</button>
    </form>
  );
}

/** A modal confirmation (native <dialog>: focus trapped, Escape cancels). */
export function Confirm(props: {
  open: boolean;
  title: string;
  children?: ComponentChildren;
  confirmLabel: string;
  danger?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  // A page may hold several dialogs (regenerate, delete): each is named by its own title.
  const titleId = useId();
  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (props.open && !element.open) element.showModal();
    if (!props.open && element.open) element.close();
  }, [props.open]);
  return (
    <dialog ref={dialog} aria-labelledby={titleId} onCancel={props.onCancel} onClose={props.onCancel}>
      <h2 id={titleId}>{props.title}</h2>
      {props.children}
      <div class="actions">
        <button type="button" onClick={props.onCancel}>
          Cancel
        </button>
        <button type="button" class={props.danger ? 'danger' : 'primary'} onClick={props.onConfirm}>
          {props.confirmLabel}
        </button>
      </div>
    </dialog>
  );
}

export function CopyButton(props: { text: string; label: string }) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    await navigator.clipboard.writeText(props.text);
    setCopied(true);
  };
  return (
    <button type="button" onClick={copy} aria-label={props.label}>
      {copied ? 'Copied' : 'Copy'}
    </button>
  );
}

export function Badge(props: { value: string }) {
  return <span class={`badge badge-${props.value}`}>{props.value.replaceAll('_', ' ')}</span>;
}

/** Field errors of a 400 next to their inputs. */
export function FieldErrors(props: { error: ApiError | null }) {
  if (!props.error) return null;
  return (
    <Notice kind="error">
      {props.error.message}
      {props.error.details.length > 0 && (
        <ul>
          {props.error.details.map((detail) => (
            <li key={detail.field}>
              {detail.field}: {detail.message}
            </li>
          ))}
        </ul>
      )}
    </Notice>
  );
}

export function Facts(props: { items: [string, ComponentChildren][] }) {
  return (
    <dl class="facts">
      {props.items.map(([term, value]) => (
        <div key={term}>
          <dt>{term}</dt>
          <dd>{value ?? '—'}</dd>
        </div>
      ))}
    </dl>
  );
}

const money = new Intl.NumberFormat('pt-BR', { style: 'currency', currency: 'BRL' });
export const formatMoney = (minor: number): string => money.format(minor / 100);

export const formatTime = (iso: string | null): string =>
  iso
    ? new Date(iso).toLocaleString('en-GB', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' }) +
      ' UTC'
    : '—';

export function formatWait(fromIso: string, now = Date.now()): string {
  const minutes = Math.max(0, Math.floor((now - Date.parse(fromIso)) / 60_000));
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${hours} h ${minutes % 60} min`;
  return `${Math.floor(hours / 24)} days`;
}

export type InputEvent = TargetedEvent<HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement, Event>;
export const inputValue = (event: InputEvent): string => event.currentTarget.value;
