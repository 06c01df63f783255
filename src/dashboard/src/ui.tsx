import type { ComponentChildren, TargetedEvent } from 'preact';
import { useCallback, useEffect, useId, useRef, useState } from 'preact/hooks';
import { type Answer, ApiError, type Pagination } from './api.js';
import { formatCount, formatDay, parseDay, statusLabel, t } from './i18n/index.js';
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

/**
 * A page from a chunk loaded on first use (`load` must be the same function on every render: a module constant);
 * `view` draws it once loaded.
 */
export function Lazy<M>(props: { load: () => Promise<M>; view: (module: M) => ComponentChildren }) {
  const [loaded, setLoaded] = useState<{ module: M } | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    let current = true;
    setLoaded(null);
    props.load().then(
      (module) => current && setLoaded({ module }),
      () => current && setFailed(true),
    );
    return () => {
      current = false;
    };
  }, [props.load]);
  if (failed) return <Notice kind="error">{t.errors.NETWORK}</Notice>;
  if (!loaded) return <p class="muted">{t.common.loading}</p>;
  return <>{props.view(loaded.module)}</>;
}

/** Loading, error or the content. */
export function Show<T>(props: { loaded: Loaded<T>; children: (answer: Answer<T>) => ComponentChildren }) {
  const { answer, error } = props.loaded;
  if (error) return <Notice kind="error">{error.message}</Notice>;
  if (!answer) return <p class="muted">{t.common.loading}</p>;
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
    document.title = t.common.pageTitle(props.title);
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
    <nav class="pager" aria-label={t.common.pages}>
      <button type="button" disabled={p.page <= 1} onClick={() => props.onPage(p.page - 1)}>
        {t.common.previous}
      </button>
      <span>
        {t.common.pageOf(formatCount(p.page), formatCount(Math.max(1, p.totalPages)), formatCount(p.total))}
      </span>
      <button type="button" disabled={p.page >= p.totalPages} onClick={() => props.onPage(p.page + 1)}>
        {t.common.next}
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
    <form class="filters" onSubmit={submit} aria-label={t.common.filters}>
      <label>
        {t.common.search}
        <input type="search" value={draft.search} onInput={field('search')} />
      </label>
      {props.statuses.length > 0 && (
        <label>
          {t.common.status}
          <select value={draft.status} onChange={field('status')}>
            <option value="">{t.common.any}</option>
            {props.statuses.map((status) => (
              <option key={status} value={status}>
                {statusLabel(status)}
              </option>
            ))}
          </select>
        </label>
      )}
      {props.dates !== false && (
        <>
          <DateInput
            label={t.common.from}
            value={draft.date_from}
            onChange={(day) => setDraft((current) => ({ ...current, date_from: day }))}
          />
          <DateInput
            label={t.common.to}
            value={draft.date_to}
            onChange={(day) => setDraft((current) => ({ ...current, date_to: day }))}
          />
        </>
      )}
      <button type="submit">{t.common.apply}</button>
    </form>
  );
}

/**
 * A day typed as the language writes it (dd/mm/yyyy), not the browser's date picker, whose order follows the
 * browser's own language rather than the dashboard's. `value` and `onChange` speak `YYYY-MM-DD`; an empty field
 * is ''. A day that does not exist is marked invalid and not passed on.
 */
export function DateInput(props: { label: string; value: string; onChange: (day: string) => void }) {
  const shown = props.value ? formatDay(props.value) : '';
  const [text, setText] = useState(shown);
  const [invalid, setInvalid] = useState(false);
  const errorId = useId();
  useEffect(() => {
    if (parseDay(text) !== props.value) setText(shown);
  }, [props.value]);
  const edit = (value: string) => {
    setText(value);
    const day = value.trim() === '' ? '' : parseDay(value);
    setInvalid(day === null);
    if (day !== null) props.onChange(day);
  };
  return (
    <>
      <label>
        {props.label}
        <input
          type="text"
          inputMode="numeric"
          autoComplete="off"
          placeholder={t.common.dateFormat}
          value={text}
          aria-invalid={invalid}
          aria-describedby={invalid ? errorId : undefined}
          onInput={(event) => edit(inputValue(event))}
        />
      </label>
      {invalid && (
        <span id={errorId} class="field-error">
          {t.common.dateInvalid}
        </span>
      )}
    </>
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
          {t.common.cancel}
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
      {copied ? t.common.copied : t.common.copy}
    </button>
  );
}

export function Badge(props: { value: string }) {
  return <span class={`badge badge-${props.value}`}>{statusLabel(props.value)}</span>;
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

export type InputEvent = TargetedEvent<HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement, Event>;
export const inputValue = (event: InputEvent): string => event.currentTarget.value;
