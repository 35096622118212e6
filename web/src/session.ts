import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import type { GetBody } from './api';

export type User = GetBody<'/api/auth/me'>['user'];

/** The logged-in user and a way to load it again (after a rename). */
export const SessionContext = createContext<{ user: User; refresh: () => void } | null>(null);

export function useUser(): { user: User; refresh: () => void } {
  const s = useContext(SessionContext);
  if (!s) throw new Error('useUser outside the application shell');
  return s;
}
