import type { DataSource } from 'typeorm';
import type Koa from 'koa';
import type { ApiKey, AuthSession, User } from '../entities';
import type { ArtifactStore } from '../platform/artifact-store';
import type { Config } from '../platform/config';
import type { Logger } from '../platform/logger';
import type { Mailer } from '../platform/mail';
import type { TemporalGateway } from '../platform/temporal-client';
import type { ModelServing } from './services/model-serving';
import type { KeyCache } from './middleware/authenticate';

/** What every route handler is built from: handed over once at startup. */
export interface AppDeps {
  config: Config;
  ds: DataSource;
  temporal: TemporalGateway;
  mailer: Mailer;
  store: ArtifactStore;
  log: Logger;
  /** Model scoring with its ONNX session pool; created by the app when not given. */
  serving?: ModelServing;
  /** Short-lived API-key principals; created by the app when not given. */
  keyCache?: KeyCache;
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
