import type { DataSource } from 'typeorm';
import type Koa from 'koa';
import type { ApiKey, AuthSession, User } from '../entities';
import type { ArtifactStore } from '../platform/artifact-store';
import type { Config } from '../platform/config';
import type { Logger } from '../platform/logger';
import type { Mailer } from '../platform/mail';
import type { TemporalGateway } from '../platform/temporal-client';
import type { Services } from '../services';
import type { RequestMeta } from '../services/account-activity';
import type { ApiMetrics } from './metrics';
import type { KeyCache } from './middleware/authenticate';
import type { RateLimiter } from './middleware/rate-limit';

/** What the API process is built from: handed over once at startup. */
export interface AppDeps {
  config: Config;
  ds: DataSource;
  temporal: TemporalGateway;
  mailer: Mailer;
  store: ArtifactStore;
  log: Logger;
  /** The application layer; built from the other dependencies when not given. */
  services?: Services;
  /** Short-lived API-key principals; created by the app when not given. */
  keyCache?: KeyCache;
  /** Prometheus metrics; created by the app when not given. */
  metrics?: ApiMetrics;
  /** Rate-limit windows; created by the app when not given (the server flushes them at shutdown). */
  limiter?: RateLimiter;
}

/** What every route module is built from. */
export interface RouteDeps {
  config: Config;
  services: Services;
  keyCache: KeyCache;
  /** For the health check only: routes reach data through services. */
  ds: DataSource;
  temporal: TemporalGateway;
  /** For `GET /metrics`. */
  metrics: ApiMetrics;
}

export interface Principal {
  user: User;
  via: 'session' | 'api_key';
  session?: AuthSession;
  apiKey?: ApiKey;
}

export interface AppState {
  requestId: string;
  log: Logger;
  principal?: Principal;
}

export type AppContext = Koa.ParameterizedContext<AppState>;

/** The authenticated caller's user id (routes with `auth: 'user' | 'session'` always have one). */
export function callerId(ctx: AppContext): string {
  return ctx.state.principal!.user.id;
}

/** The caller's API-key scopes, or null for a cookie session (limited by project roles only). */
export function keyScopes(ctx: AppContext): string[] | null {
  const p = ctx.state.principal;
  return p?.via === 'api_key' ? p.apiKey!.scopes : null;
}

/** Where the request came from, for the account activity log: the client address (as `TRUST_PROXY` decides) and user agent. */
export function requestMeta(ctx: AppContext): RequestMeta {
  return { ip: ctx.ip || null, userAgent: ctx.get('user-agent') || null };
}
