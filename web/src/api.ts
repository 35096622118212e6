import type { components, paths } from './api-types';

/**
 * The API over fetch with the cookie session: the browser sends the HttpOnly `session_token` itself; writes
 * echo the readable `csrf_token` cookie in `X-CSRF-Token` (README, Authentication). Nothing is kept in storage.
 */

/** An API refusal: `detail` is the API's own text (validation lists are joined into one line per field). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly detail: string,
  ) {
    super(detail);
  }
}

/** The CSRF token issued with this session, or '' when logged out. */
export function csrfToken(): string {
  const m = /(?:^|;\s*)csrf_token=([^;]*)/.exec(document.cookie);
  return m ? decodeURIComponent(m[1]) : '';
}

/** Whether a session cookie pair was set (the HttpOnly one cannot be read; its readable twin can). */
export function hasSession(): boolean {
  return csrfToken() !== '';
}

/** One entry of a validation refusal's `detail` list. */
type ValidationIssue = Exclude<components['schemas']['ValidationError']['detail'], string>[number];

/** The text of an error body: `{detail: string}` or a validation list `{detail: [{loc, msg}]}`. */
export function detailText(body: unknown, status: number): string {
  const d = (body as { detail?: unknown } | null)?.detail;
  if (typeof d === 'string') return d;
  if (Array.isArray(d)) {
    return (
      d
        // Read defensively: a body that is not the API's own (a proxy's) may lack any field.
        .map((e: Partial<ValidationIssue>) => {
          const field = (e.loc ?? []).filter((p) => p !== 'body' && p !== 'query' && p !== 'path').join('.');
          return field ? `${field}: ${e.msg ?? 'invalid'}` : (e.msg ?? 'invalid');
        })
        .join('; ')
    );
  }
  return `Request failed (${status})`;
}

/** A JSON request; throws {@link ApiError} with the API's detail on any non-2xx answer. */
export async function api<T = unknown>(method: string, path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (method !== 'GET') headers['x-csrf-token'] = csrfToken();
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(path, { method, headers, credentials: 'same-origin', body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    parsed = null;
  }
  if (!res.ok) throw new ApiError(res.status, detailText(parsed, res.status));
  return parsed as T;
}

export const get = <T>(path: string) => api<T>('GET', path);
export const post = <T>(path: string, body?: unknown) => api<T>('POST', path, body ?? {});
export const put = <T>(path: string, body?: unknown) => api<T>('PUT', path, body ?? {});
export const patch = <T>(path: string, body?: unknown) => api<T>('PATCH', path, body ?? {});
export const del = <T>(path: string) => api<T>('DELETE', path);

/** `?a=1&b=2` from the set values of an object (empty strings and undefined are left out). */
export function qs(params: Record<string, string | number | boolean | undefined | null>): string {
  const u = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== null && v !== '') u.set(k, String(v));
  const s = u.toString();
  return s ? `?${s}` : '';
}

/**
 * A multipart upload through XMLHttpRequest, whose upload events give the progress fetch cannot; `onProgress`
 * gets the fraction sent (0..1).
 */
export function upload<T>(path: string, form: FormData, onProgress: (fraction: number) => void): Promise<T> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', path);
    xhr.setRequestHeader('x-csrf-token', csrfToken());
    xhr.setRequestHeader('accept', 'application/json');
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) onProgress(e.loaded / e.total);
    };
    xhr.onload = () => {
      let body: unknown;
      try {
        body = JSON.parse(xhr.responseText);
      } catch {
        body = null;
      }
      if (xhr.status >= 200 && xhr.status < 300) {
        onProgress(1);
        resolve(body as T);
      } else reject(new ApiError(xhr.status, detailText(body, xhr.status)));
    };
    xhr.onerror = () => reject(new ApiError(0, 'The upload did not reach the server'));
    xhr.send(form);
  });
}

/**
 * The list envelope of the API's paged lists, with items of type `T`: every paged list answers the envelope of
 * `pageOf` (api/presenters/page.schema.ts), whose counts are read here from one of them.
 */
export type Page<T> = { items: T[] } & Pick<GetBody<'/api/jobs'>, 'total' | 'limit' | 'offset'>;

/** An empty page, for a list the caller has no reason to ask for. */
export const NO_PAGE: Page<never> = { items: [], total: 0, limit: 0, offset: 0 };

type JsonOf<R> = R extends { content: { 'application/json': infer B } } ? B : never;

/**
 * The JSON body `method path` answers on success (200 or 201), as the OpenAPI document states it
 * (web/src/api-types.ts, generated by scripts/api-types.ts): the UI reads the server's own types instead of copies
 * that drift from it.
 */
export type Answer<P extends keyof paths, M extends 'get' | 'post' | 'put' | 'patch' | 'delete'> = paths[P][M] extends { responses: infer R } ? JsonOf<R[Extract<keyof R, 200 | 201>]> : never;

/** The JSON body `GET path` answers with 200. */
export type GetBody<P extends keyof paths> = Answer<P, 'get'>;

/** One item of a paged list `GET path` answers with. */
export type ListItem<P extends keyof paths> = GetBody<P> extends { items: (infer T)[] } ? T : never;
