import type { ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';

/** Client-side routing over the History API: pages change without a reload; links stay real links. */
const listeners = new Set<() => void>();

/** Goes to a path of the application (pushes history unless `replace`). */
export function navigate(to: string, replace = false): void {
  if (replace) history.replaceState(null, '', to);
  else history.pushState(null, '', to);
  listeners.forEach((l) => l());
  window.scrollTo(0, 0);
}

window.addEventListener('popstate', () => listeners.forEach((l) => l()));

/** The current location; re-renders on navigation. */
export function useLocation(): { path: string; query: URLSearchParams } {
  const [, setTick] = useState(0);
  const rendered = location.pathname + location.search;
  useEffect(() => {
    const l = () => setTick((t) => t + 1);
    listeners.add(l);
    // A child's effect runs before this one: a navigation it made while we were not yet listening is caught here.
    if (location.pathname + location.search !== rendered) l();
    return () => listeners.delete(l);
  }, []);
  return { path: location.pathname, query: new URLSearchParams(location.search) };
}

/** Matches `/app/projects/:id` against a path; the named segments, or null. */
export function match(pattern: string, path: string): Record<string, string> | null {
  const p = pattern.split('/');
  const s = path.replace(/\/+$/, '').split('/');
  if (p.length !== s.length) return null;
  const out: Record<string, string> = {};
  for (let i = 0; i < p.length; i++) {
    if (p[i].startsWith(':')) out[p[i].slice(1)] = decodeURIComponent(s[i]);
    else if (p[i] !== s[i]) return null;
  }
  return out;
}

/** An anchor that navigates on the client for a plain left click (new tabs and downloads work as usual). */
export function Link(props: { href: string; children: ComponentChildren; class?: string; 'aria-current'?: 'page'; 'aria-label'?: string }) {
  const { href, children, ...rest } = props;
  const onClick = (e: MouseEvent) => {
    if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    e.preventDefault();
    navigate(href);
  };
  return (
    <a href={href} onClick={onClick} {...rest}>
      {children}
    </a>
  );
}
