/** The common shape of list queries and their answers (the spec's list envelope). */
export interface ListQuery<F extends string = string> {
  limit: number;
  offset: number;
  search?: string;
  sort_field: F;
  sort_direction: 'asc' | 'desc';
}

export interface PageQuery {
  limit: number;
  offset: number;
}

export interface Page<T> {
  items: T[];
  total: number;
  limit: number;
  offset: number;
}

/** Escapes `%`, `_` and `\` for an ILIKE substring search. */
export function likePattern(search: string): string {
  return `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** SQL direction keyword for a validated sort direction. */
export function sqlDirection(dir: 'asc' | 'desc'): 'ASC' | 'DESC' {
  return dir === 'asc' ? 'ASC' : 'DESC';
}
