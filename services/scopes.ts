/**
 * API key scopes: `verb:resource`, plus the broad aliases. A route names the one scope it
 * needs; `write:x` implies `read:x`; `admin` and `*` grant everything.
 */
export const SCOPE_RESOURCES = ['projects', 'datasets', 'experiments', 'models', 'deployments', 'reports', 'privacy', 'synthgen', 'studio'] as const;
export const SCOPE_VERBS = ['read', 'write', 'predict', 'admin'] as const;
export const SCOPE_ALIASES = ['read', 'write', 'predict', 'admin', '*'] as const;

export type ScopeResource = (typeof SCOPE_RESOURCES)[number];
export type ScopeVerb = (typeof SCOPE_VERBS)[number];
export type RequiredScope = `${ScopeVerb}:${ScopeResource}`;

/** Every scope string a key may carry. */
export const KNOWN_SCOPES: string[] = [
  ...SCOPE_ALIASES,
  ...SCOPE_VERBS.flatMap((v) => SCOPE_RESOURCES.map((r) => `${v}:${r}`)),
];

export function isKnownScope(s: string): boolean {
  return KNOWN_SCOPES.includes(s);
}

/** Whether the granted scopes satisfy `required`. */
export function scopeAllows(granted: string[], required: RequiredScope): boolean {
  const [verb, resource] = required.split(':') as [ScopeVerb, ScopeResource];
  for (const g of granted) {
    if (g === '*' || g === 'admin') return true;
    if (g === required) return true;
    if (g === verb) return true;
    if (verb === 'read' && (g === 'write' || g === `write:${resource}` || g === `admin:${resource}`)) return true;
    if (verb === 'write' && g === `admin:${resource}`) return true;
    if (verb === 'predict' && (g === `write:${resource}` || g === `admin:${resource}`)) return true;
  }
  return false;
}
