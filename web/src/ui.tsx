import type { ComponentChildren, InputHTMLAttributes, PartialInputHTMLAttributes, SelectHTMLAttributes } from 'preact';
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { ApiError, type Page } from './api';

/** Loads data for a page: `reload()` fetches again; `error` is the API's detail text. */
export function useAsync<T>(fn: () => Promise<T>, deps: unknown[]): { data?: T; error?: string; loading: boolean; reload: () => void } {
  const [state, setState] = useState<{ data?: T; error?: string; loading: boolean }>({ loading: true });
  const [tick, setTick] = useState(0);
  useEffect(() => {
    let live = true;
    setState((s) => ({ ...s, loading: true }));
    fn().then(
      (data) => live && setState({ data, loading: false }),
      (err: unknown) => live && setState({ error: errorText(err), loading: false }),
    );
    return () => {
      live = false;
    };
  }, [...deps, tick]);
  return { ...state, reload: useCallback(() => setTick((t) => t + 1), []) };
}

/**
 * One page of an API list (the `{items, total, limit, offset}` envelope, paged by `limit`/`offset` as the API does):
 * `pager` is the previous/next control to show under the table, null while there is a single page. A change of
 * `deps` (a filter, a search) starts again from the first page.
 */
export function usePaged<T>(
  fetchPage: (page: { limit: number; offset: number }) => Promise<Page<T>>,
  deps: unknown[],
  limit = 50,
): { data?: Page<T>; error?: string; loading: boolean; reload: () => void; pager: ComponentChildren } {
  const key = JSON.stringify(deps);
  const [pos, setPos] = useState({ key, offset: 0 });
  const offset = pos.key === key ? pos.offset : 0;
  const res = useAsync(() => fetchPage({ limit, offset }), [...deps, offset]);
  const total = res.data?.total ?? 0;
  const pager = total > limit ? <Pager total={total} limit={limit} offset={offset} onPage={(o) => setPos({ key, offset: o })} /> : null;
  return { ...res, pager };
}

/** Previous / next over a paged list, with where the shown rows sit in the whole. */
export function Pager({ total, limit, offset, onPage }: { total: number; limit: number; offset: number; onPage: (offset: number) => void }) {
  const last = Math.min(total, offset + limit);
  return (
    <nav class="row pager" aria-label="Pages">
      <button type="button" class="secondary small" disabled={offset === 0} onClick={() => onPage(Math.max(0, offset - limit))}>
        Previous
      </button>
      <span aria-live="polite">
        {offset + 1}–{last} of {total.toLocaleString()}
      </span>
      <button type="button" class="secondary small" disabled={last >= total} onClick={() => onPage(offset + limit)}>
        Next
      </button>
    </nav>
  );
}

/** Runs a user action (a form submit, a button): `busy` while it runs, the API's detail text on failure. */
export function useAction(): { busy: boolean; error?: string; run: (fn: () => Promise<unknown>) => Promise<void>; setError: (e?: string) => void } {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const run = useCallback(async (fn: () => Promise<unknown>) => {
    setBusy(true);
    setError(undefined);
    try {
      await fn();
    } catch (err) {
      setError(errorText(err));
    } finally {
      setBusy(false);
    }
  }, []);
  return { busy, error, run, setError };
}

export function errorText(err: unknown): string {
  if (err instanceof ApiError) return err.detail;
  return err instanceof Error ? err.message : String(err);
}

/** Polls `fn` every `ms` while `active`; stops when the component goes away. */
export function usePoll(fn: () => void, ms: number, active: boolean): void {
  const ref = useRef(fn);
  ref.current = fn;
  useEffect(() => {
    if (!active) return;
    const t = setInterval(() => ref.current(), ms);
    return () => clearInterval(t);
  }, [ms, active]);
}

/** Sets the document title (each page has its own, for history and screen readers). */
export function useTitle(title: string): void {
  useEffect(() => {
    document.title = `${title} · ML lifecycle service`;
  }, [title]);
}

/** An error announced to screen readers. */
export function ErrorBox({ error }: { error?: string }) {
  if (!error) return null;
  return (
    <p class="error" role="alert">
      {error}
    </p>
  );
}

export function Loading({ what = 'Loading' }: { what?: string }) {
  return (
    <p class="muted" aria-live="polite">
      {what}…
    </p>
  );
}

/** A labelled input (the label wraps it, so a click focuses it and screen readers name it). */
export function Field(props: { label: string; hint?: string; /** A `<datalist>` id of suggested values. */ list?: string } & Omit<PartialInputHTMLAttributes<HTMLInputElement>, 'role'>) {
  const { label, hint, ...rest } = props;
  return (
    <label class="field">
      <span>{label}</span>
      {/* Preact types pair each input type with its allowed roles; these fields set none. */}
      <input {...(rest as InputHTMLAttributes<HTMLInputElement>)} />
      {hint && <small class="muted">{hint}</small>}
    </label>
  );
}

export function Select(props: { label: string; options: (string | [string, string])[] } & SelectHTMLAttributes<HTMLSelectElement>) {
  const { label, options, ...rest } = props;
  return (
    <label class="field">
      <span>{label}</span>
      <select {...rest}>
        {options.map((o: string | [string, string]) => {
          const [value, text] = Array.isArray(o) ? o : [o, o];
          return (
            <option key={value} value={value}>
              {text}
            </option>
          );
        })}
      </select>
    </label>
  );
}

/** A progress bar with its percentage (job and upload progress). */
export function Progress({ value, label }: { value: number; label: string }) {
  const pct = Math.max(0, Math.min(100, Math.round(value * 100)));
  return (
    <div class="progress">
      <progress max={100} value={pct} aria-label={label} />
      <span>{pct}%</span>
    </div>
  );
}

/** A table in a horizontally scrollable, keyboard-focusable region (narrow screens scroll it, not the page). */
export function Table<T>(props: { caption: string; rows: T[]; columns: { head: string; cell: (row: T) => ComponentChildren; num?: boolean }[]; empty?: string }) {
  const { caption, rows, columns, empty = 'Nothing yet.' } = props;
  if (rows.length === 0) return <p class="muted">{empty}</p>;
  return (
    <div class="table-wrap" tabIndex={0} role="region" aria-label={caption}>
      <table>
        <caption class="sr-only">{caption}</caption>
        <thead>
          <tr>
            {columns.map((c) => (
              <th key={c.head} scope="col" class={c.num ? 'num' : undefined}>
                {c.head}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((r, i) => (
            <tr key={i}>
              {columns.map((c) => (
                <td key={c.head} class={c.num ? 'num' : undefined}>
                  {c.cell(r)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function Section({ title, children, actions }: { title: string; children: ComponentChildren; actions?: ComponentChildren }) {
  return (
    <section class="card" aria-label={title}>
      <div class="card-head">
        <h2>{title}</h2>
        {actions}
      </div>
      {children}
    </section>
  );
}

/** A status word with its colour class (queued, running, succeeded, failed, canceled...). */
export function Status({ value }: { value: string | null | undefined }) {
  return <span class={`status status-${value ?? 'unknown'}`}>{value ?? 'unknown'}</span>;
}

export function fmtDate(v: string | null | undefined): string {
  if (!v) return '–';
  const d = new Date(v);
  return Number.isNaN(d.getTime()) ? String(v) : d.toLocaleString();
}

export function fmtNum(v: unknown, digits = 4): string {
  if (typeof v !== 'number' || !Number.isFinite(v)) return v === null || v === undefined ? '–' : String(v);
  if (Number.isInteger(v)) return v.toLocaleString();
  return Number(v.toPrecision(digits)).toString();
}

export function fmtBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  const units = ['KiB', 'MiB', 'GiB'];
  let v = n / 1024;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return `${v.toFixed(1)} ${units[i]}`;
}

/** Tabs as links (each tab is its own URL, so reload and back work); `keep`: query parameters every tab keeps (`version=2`). */
export function Tabs({ tabs, current, base, keep }: { tabs: [string, string][]; current: string; base: string; keep?: string }) {
  const href = (id: string) => `${base}?tab=${id}${keep ? `&${keep}` : ''}`;
  return (
    <nav class="tabs" aria-label="Sections">
      {tabs.map(([id, label]) => (
        <a
          key={id}
          href={href(id)}
          aria-current={id === current ? 'page' : undefined}
          onClick={(e) => {
            e.preventDefault();
            history.pushState(null, '', href(id));
            dispatchEvent(new PopStateEvent('popstate'));
          }}
        >
          {label}
        </a>
      ))}
    </nav>
  );
}
