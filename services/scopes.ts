import { ForbiddenError } from './errors';

/**
 * API key scopes: `verb:resource`, plus the broad aliases. A route names the scopes it needs;
 * where they depend on the resource (an artifact's owner, a job's kind) the service checks them
 * once it has loaded it. `write:x` implies `read:x`; `admin` and `*` grant everything.
 */
export const SCOPE_RESOURCES = ['projects', 'datasets', 'experiments', 'models', 'deployments', 'reports', 'privacy', 'synthgen', 'studio'] as const;
export const SCOPE_VERBS = ['read', 'write', 'predict', 'admin'] as const;
export const SCOPE_ALIASES = ['read', 'write', 'predict', 'admin', '*'] as const;

export type ScopeResource = (typeof SCOPE_RESOURCES)[number];
export type ScopeVerb = (typeof SCOPE_VERBS)[number];
/** `admin`: the alias alone, which the admin area's routes need (a key made with `admin` or `*`). */
export type RequiredScope = `${ScopeVerb}:${ScopeResource}` | 'admin';

/** Every scope string a key may carry. */
export const KNOWN_SCOPES: string[] = [...SCOPE_ALIASES, ...SCOPE_VERBS.flatMap((v) => SCOPE_RESOURCES.map((r) => `${v}:${r}`))];

export function isKnownScope(s: string): boolean {
  return KNOWN_SCOPES.includes(s);
}

/** Whether the granted scopes satisfy `required`. */
export function scopeAllows(granted: readonly string[], required: RequiredScope): boolean {
  const [verb, resource] = required.split(':') as [ScopeVerb, ScopeResource];
  for (const g of granted) {
    if (g === '*' || g === 'admin') return true;
    // Only the broad aliases grant the admin area: no `verb:resource` scope reaches it.
    if (required === 'admin') continue;
    if (g === required) return true;
    if (g === verb) return true;
    if (verb === 'read' && (g === 'write' || g === `write:${resource}` || g === `admin:${resource}`)) return true;
    if (verb === 'write' && g === `admin:${resource}`) return true;
    if (verb === 'predict' && (g === `write:${resource}` || g === `admin:${resource}`)) return true;
  }
  return false;
}

/** The answer to a key without the scope an operation needs (the spec's text). */
export const INSUFFICIENT_SCOPE = 'Insufficient scope';

/**
 * Throws 403 `Insufficient scope` unless `granted` covers every scope in `required`.
 * `granted` is null for cookie sessions: a logged-in user is limited by roles only.
 */
export function assertScopes(granted: readonly string[] | null, required: RequiredScope | readonly RequiredScope[]): void {
  if (granted !== null && !scopesAllow(granted, required)) throw new ForbiddenError(INSUFFICIENT_SCOPE);
}

/** Whether the granted scopes satisfy every one of `required`. */
export function scopesAllow(granted: readonly string[], required: RequiredScope | readonly RequiredScope[]): boolean {
  return (typeof required === 'string' ? [required] : required).every((r) => scopeAllows(granted, r));
}

/**
 * The resource type whose scope reads an artifact, by the artifact's owner type. An artifact
 * is a file of its owner: a dataset version's file is dataset data, a model's binary is the
 * model, whichever route hands it out.
 */
const ARTIFACT_OWNER_RESOURCE = new Map<string, ScopeResource>([
  ['dataset', 'datasets'],
  ['model', 'models'],
  ['report', 'reports'],
  ['privacy_session', 'privacy'],
  ['synthgen_model', 'synthgen'],
  ['synthgen_job', 'synthgen'],
]);

/**
 * What reading a whole project archive needs: `read:projects` (the manifest, its members) and
 * the read scope of every owner type whose files it carries. The streamed export and the
 * `project_export` artifact both hand out this archive.
 */
export const PROJECT_ARCHIVE_SCOPES: readonly RequiredScope[] = ['read:projects', ...[...new Set(ARTIFACT_OWNER_RESOURCE.values())].map((r): RequiredScope => `read:${r}`)];

/**
 * The scopes an API key needs to download or preview an artifact: its owner's read scope; a
 * project archive needs {@link PROJECT_ARCHIVE_SCOPES}; a file with no owner (project-level)
 * needs `read:projects`. An owner type not listed above fails closed: it needs what an archive
 * needs.
 */
export function artifactReadScopes(a: { kind: string; ownerType: string | null }): readonly RequiredScope[] {
  if (a.kind === 'project_export') return PROJECT_ARCHIVE_SCOPES;
  if (a.ownerType === null) return ['read:projects'];
  const resource = ARTIFACT_OWNER_RESOURCE.get(a.ownerType);
  return resource ? [`read:${resource}`] : PROJECT_ARCHIVE_SCOPES;
}
