import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { BILLING_ENV, billingConfig, type BillingConfig } from './billing-config';

/**
 * The one place that reads the environment. Parsed once, typed, validated: a bad value
 * stops startup with a message naming the variable. Every variable is listed in the README.
 */
const bool = z.enum(['true', 'false', '1', '0', 'yes', 'no']).transform((v) => v === 'true' || v === '1' || v === 'yes');
const int = (def: number, min = 0) => z.coerce.number().int().min(min).default(def);
/** A 256-bit key written in base64 (`openssl rand -base64 32`); the message never repeats the value. */
const KEY_32_BASE64 = /^[A-Za-z0-9+/]{43}=$/;
const secretKey = z.string().regex(KEY_32_BASE64, 'must be 32 random bytes in base64 (44 characters: openssl rand -base64 32)');

const EnvSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  HOST: z.string().default('0.0.0.0'),
  PORT: int(8000),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  DATA_DIR: z.string().default('./data'),
  /** postgres://… of an external server; unset: the embedded engine under DATA_DIR/pg. */
  DATABASE_URL: z.string().url().optional(),
  DATABASE_POOL_SIZE: int(10, 1),
  /** How long a job's activity hit by a database outage waits for it to return before its attempt counts as failed. */
  OUTAGE_WAIT_SECS: int(600, 0),
  EMBEDDED_DB_PORT: int(54329, 0),
  /** As root, the OS user the embedded PostgreSQL runs as (it refuses root); created when missing. */
  EMBEDDED_DB_OS_USER: z
    .string()
    .regex(/^[a-z_][a-z0-9_-]{0,31}$/)
    .default('postgres'),
  /** host:port of a Temporal frontend; unset: the local dev server is started. */
  TEMPORAL_ADDRESS: z.string().optional(),
  TEMPORAL_NAMESPACE: z.string().default('default'),
  TEMPORAL_DEV_PORT: int(7233, 0),
  TEMPORAL_UI_PORT: int(8233, 0),
  TEMPORAL_UI_URL: z.string().url().optional(),
  /** Prefix for task queue names, to run several isolated stacks against one cluster. */
  TASK_QUEUE_PREFIX: z.string().default(''),
  /** Seconds a GPU task may wait for a GPU worker before it goes to the CPU workers' queue instead (ml-train for AutoML, ml-cpu for synthgen). */
  GPU_SCHEDULE_TO_START_SECS: int(60, 1),
  ARTIFACT_DIR: z.string().optional(),
  /** Where artifact bytes live: `local` (ARTIFACT_DIR) or `s3` (S3_BUCKET, shared by processes on several machines). */
  ARTIFACT_STORE: z.enum(['local', 's3']).default('local'),
  /** An S3-compatible server's URL (MinIO, ...); unset: AWS S3 itself. */
  S3_ENDPOINT: z.string().url().optional(),
  S3_BUCKET: z.string().min(3).optional(),
  S3_REGION: z.string().default('us-east-1'),
  /** Bucket in the path (`endpoint/bucket/key`) rather than the host name; default: true when S3_ENDPOINT is set. */
  S3_FORCE_PATH_STYLE: bool.optional(),
  /** Bytes of local copies of S3 artifacts (DATA_DIR/cache/artifacts) kept for readers that need a file. */
  ARTIFACT_CACHE_MAX_BYTES: int(10 * 1024 * 1024 * 1024, 0),
  SMTP_URL: z.string().url().optional(),
  MAIL_FROM: z.string().default('ML Service <no-reply@localhost>'),
  MAIL_OUTBOX_DIR: z.string().optional(),
  /** Mails (activation, reset, invitation, notices) one address may be sent an hour; past it they are logged and not sent. 0: no limit. */
  MAIL_MAX_PER_RECIPIENT_PER_HOUR: int(5, 0),
  APP_BASE_URL: z.string().url().optional(),
  SESSION_TTL_HOURS: int(24, 1),
  REMEMBER_TTL_DAYS: int(30, 1),
  EMAIL_VERIFY_TTL_HOURS: int(48, 1),
  PASSWORD_RESET_TTL_MINUTES: int(60, 1),
  /** Secure cookies: `auto` sets Secure when the request arrived over TLS (or X-Forwarded-Proto https). */
  COOKIE_SECURE: z.enum(['auto', 'true', 'false']).default('auto'),
  TRUST_PROXY: bool.default(false),
  RATE_LIMIT_WINDOW_SECS: int(60, 1),
  RATE_LIMIT_GENERAL: int(100, 1),
  RATE_LIMIT_AUTH: int(10, 1),
  RATE_LIMIT_PREDICT: int(50, 1),
  RATE_LIMIT_TRAIN: int(5, 1),
  RATE_LIMIT_REPORT: int(20, 1),
  RATE_LIMIT_AI: int(30, 1),
  /** Adding members and sending invitations, per user: tight, so neither can be used to probe which emails have accounts. */
  RATE_LIMIT_MEMBERS: int(30, 1),
  MAX_DATASET_UPLOAD_BYTES: int(100 * 1024 * 1024, 1),
  /** Most columns a dataset (upload or new version) may have; past it the upload answers 422 naming the limit. */
  /** Columns a dataset may have (422 past it); the default is the engine's measured one (engine/data/column-limit.ts). */
  MAX_DATASET_COLUMNS: int(2000, 1),
  /** Rows a dataset may have (422 past it, a Parquet file refused from its footer); default: engine/data/size-limit.ts. */
  MAX_DATASET_ROWS: int(50_000_000, 1),
  /** Cells (rows × columns) a dataset may have (422 past it); default: engine/data/size-limit.ts. */
  MAX_DATASET_CELLS: int(500_000_000, 1),
  /** Cells (rows × columns) AutoML reads of a dataset version; a larger one is trained on a seeded sample of its rows. */
  MAX_TRAINING_CELLS: int(20_000_000, 1),
  MAX_JSON_BODY_BYTES: int(1024 * 1024, 1),
  /** The account quota on an experiment's `max_models` (at most the engine's own cap, 500); a larger request answers 422, an omitted one defaults to min(20, this). */
  MAX_MODELS_PER_EXPERIMENT: int(100, 1),
  /** The account quota on an experiment's `max_runtime_secs` (at most the engine's own cap, 7 days): one experiment holds a training slot that long. */
  MAX_EXPERIMENT_RUNTIME_SECS: int(86_400, 1),
  /** Projects one user may own (create while owning this many answers 409); 0: no limit. */
  MAX_PROJECTS_PER_USER: int(1000, 0),
  /** Jobs one user may have queued or running at once (starting another answers 429 with Retry-After); 0: no limit. */
  MAX_OPEN_JOBS_PER_USER: int(100, 0),
  /** Jobs one project may have queued or running at once, whoever started them (one more answers 429); 0: no limit. */
  MAX_OPEN_JOBS_PER_PROJECT: int(200, 0),
  /**
   * Jobs of one user whose work holds an ml-cpu slot (profiling, drift, privacy, synthgen) that run at once; the rest
   * wait, without holding a slot, until one of that user's finishes. Below a worker's ml-cpu slots (2), so another
   * user's job always finds a free slot however many jobs one user queues; 0: no limit.
   */
  MAX_RUNNING_JOBS_PER_USER: int(1, 0),
  /** Bytes of stored files (datasets, models, exports, reports) the projects one user owns may hold; one more upload or job answers 403; 0: no limit. */
  MAX_STORAGE_BYTES_PER_USER: int(100 * 1024 ** 3, 0),
  /** Bytes of stored files one project may hold (one more upload or job answers 403); 0: no limit. */
  MAX_STORAGE_BYTES_PER_PROJECT: int(50 * 1024 ** 3, 0),
  /** What-if studio sessions one user may hold in one project (starting another answers 409); 0: no limit. */
  MAX_STUDIO_SESSIONS_PER_USER: int(500, 0),
  /** Days the account activity log (`GET /api/auth/my-activity`) keeps an event. */
  ACCOUNT_ACTIVITY_RETENTION_DAYS: int(365, 1),
  /** A JSON (or form) body must arrive whole within this many seconds (408 otherwise). */
  BODY_TIMEOUT_SECS: int(30, 1),
  /** An upload may pause this long between two chunks before it is cut off (408). */
  UPLOAD_IDLE_TIMEOUT_SECS: int(60, 1),
  HTTP_KEEP_ALIVE_SECS: int(65, 1),
  /** New versions with at least this many rows get their statistics from a background `dataset_profile` job (1: every version; 0: none). */
  PROFILE_IN_BACKGROUND_MIN_ROWS: int(1, 0),
  RECONCILE_INTERVAL_SECS: int(60, 0),
  /** An open job the reconciler looks at must be unchanged this long (a job just created may not have its workflow yet). */
  RECONCILE_GRACE_SECS: int(30, 0),
  /** How often the API removes stored files no artifact row references (services/artifact-sweep.ts); 0: never. */
  ARTIFACT_SWEEP_INTERVAL_SECS: int(3600, 0),
  /** A stored file younger than this is never swept (its row may be on its way): longer than any single write takes. */
  ARTIFACT_SWEEP_GRACE_SECS: int(3600, 60),
  /** Most rows one synthgen generation may ask for (`num_rows`); past it the request answers 422. */
  SYNTHGEN_MAX_ROWS: int(1_000_000, 1),
  /** Most rows of a dataset version a synthgen model is fitted on (a seeded sample past it). */
  SYNTHGEN_MAX_TRAIN_ROWS: int(100_000, 1),
  /** Seconds between two training checkpoints of a neural synthgen model (a retried attempt resumes from the latest). */
  SYNTHGEN_CHECKPOINT_SECS: int(10, 1),
  /** Threads of one neural synthgen fit's matrix products (0: every core of the worker's machine; capped at the cores). */
  SYNTHGEN_THREADS: int(0, 0),
  /** An OpenAI-compatible chat-completions endpoint for reports' `llm_insights` (base URL, e.g. https://api.openai.com/v1); unset: none. */
  LLM_API_URL: z.string().url().optional(),
  LLM_API_KEY: z.string().optional(),
  LLM_MODEL: z.string().default('gpt-4o-mini'),
  /** Which workers `npm start` runs beside the API: comma list of io,cpu,gpu, or `none`. */
  START_WORKERS: z.string().default('io,cpu,gpu'),
  /** When set, `GET /metrics` needs `Authorization: Bearer <token>`; unset: it is open on the API port. */
  METRICS_TOKEN: z.string().min(16).optional(),
  /** Port of a worker process's Prometheus endpoint (`/metrics`); 0: none. */
  WORKER_METRICS_PORT: int(0, 0),
  /** On SIGTERM/SIGINT: how long in-flight requests (API) and activities (workers) may take to finish. */
  SHUTDOWN_GRACE_SECS: int(25, 1),
  /** How often buffered inference-log rows are written (one batched INSERT). */
  INFERENCE_LOG_FLUSH_MS: int(200, 10),
  /** Model activities an AutoML experiment keeps in flight at once (travels in the workflow input). */
  TRAINING_PARALLELISM: int(2, 1),
  /** Training activities one cpu worker process runs at once (its training task queue's concurrency). */
  TRAINING_SLOTS: int(1, 1),
  /** Where the named-entity model (spaCy en_core_web_sm) and the tagger's word classes (en_core_web_md), converted by scripts/ensure-ner-model, live; default ~/.cache/mlsvc/ner (MLSVC_CACHE_DIR/ner). */
  NER_MODEL_DIR: z.string().optional(),
  /** Alert channels may send to hosts that resolve to loopback, private or link-local addresses (off: the SSRF guard refuses them). */
  ALERT_ALLOW_PRIVATE_TARGETS: bool.default(false),
  /** Failed deliveries in a row after which an alert channel is marked failing (a success clears it). */
  ALERT_CHANNEL_FAILING_AFTER: int(3, 1),
  /** Seconds between two evaluations of a project's alert rules (its Temporal Schedule's interval; tests use a few). */
  ALERT_EVAL_INTERVAL_SECS: int(60, 1),
  ...BILLING_ENV,
  /** First-run bootstrap: while no superuser exists, the account with this email becomes one (at registration or API start). */
  ADMIN_EMAIL: z.string().email().optional(),
  /** Registration mode until an admin sets one (`PUT /api/admin/settings`): open, invite_only or closed. */
  REGISTRATION: z.enum(['open', 'invite_only', 'closed']).default('open'),
  /** Comma-separated email domains registration accepts until an admin sets them; empty: any domain. */
  ALLOWED_EMAIL_DOMAINS: z.string().default(''),
  /** The plan of users without one until an admin sets it; unset: the built-in self_hosted plan. */
  DEFAULT_PLAN: z.string().optional(),
  /** Warn and error log entries kept in `service_log_entries` (`GET /api/admin/logs`); the oldest are pruned past it. 0: not captured. */
  SERVICE_LOG_MAX_ENTRIES: int(50_000, 0),
  /** The key (base64, 32 bytes) that encrypts stored secrets (SSO client secrets); unset: DATA_DIR/secrets.key, made once. */
  SECRETS_KEY: secretKey.optional(),
  /** Comma-separated earlier SECRETS_KEY values, still read after a rotation until the API start re-encrypts with the new one. */
  SECRETS_KEY_PREVIOUS: z
    .string()
    .refine((v) => v.split(',').every((k) => KEY_32_BASE64.test(k.trim())), 'each key must be 32 random bytes in base64 (44 characters)')
    .optional(),
});

export type Env = z.infer<typeof EnvSchema>;

export interface Config {
  env: Env['NODE_ENV'];
  host: string;
  port: number;
  logLevel: Env['LOG_LEVEL'];
  dataDir: string;
  databaseUrl?: string;
  databasePoolSize: number;
  outageWaitSecs: number;
  embeddedDbPort: number;
  embeddedDbOsUser: string;
  temporal: {
    address?: string;
    namespace: string;
    devPort: number;
    uiPort: number;
    uiUrl: string;
    gpuScheduleToStartSecs: number;
  };
  taskQueues: { cpu: string; gpu: string; io: string };
  /** The light queue of the jobs' status writes and admission checks, which every worker process polls. */
  statusTaskQueue: string;
  /** AutoML training: its own task queue (polled by cpu workers with `slots` concurrency) and the models in flight per experiment. */
  training: { taskQueue: string; parallelism: number; slots: number };
  artifactDir: string;
  /** The artifact store (`ARTIFACT_STORE`): the local folder, or an S3 bucket with a bounded local cache. */
  artifactStore: {
    kind: 'local' | 's3';
    s3: { bucket: string; region: string; endpoint?: string; forcePathStyle: boolean } | null;
    cacheDir: string;
    cacheMaxBytes: number;
  };
  /** `maxPerRecipientPerHour`: null for no limit. */
  mail: { smtpUrl?: string; from: string; outboxDir: string; maxPerRecipientPerHour: number | null };
  appBaseUrl: string;
  auth: {
    sessionTtlHours: number;
    rememberTtlDays: number;
    emailVerifyTtlHours: number;
    passwordResetTtlMinutes: number;
    cookieSecure: 'auto' | 'true' | 'false';
  };
  trustProxy: boolean;
  rateLimits: {
    windowSecs: number;
    general: number;
    auth: number;
    predict: number;
    train: number;
    report: number;
    ai: number;
    members: number;
  };
  limits: {
    maxDatasetUploadBytes: number;
    maxDatasetColumns: number;
    maxDatasetRows: number;
    maxDatasetCells: number;
    maxTrainingCells: number;
    maxJsonBodyBytes: number;
    bodyTimeoutMs: number;
    uploadIdleTimeoutMs: number;
    keepAliveTimeoutMs: number;
  };
  /** The self-hosted plan's quotas (`GET /api/auth/plan`); null: no limit. */
  quotas: {
    maxModelsPerExperiment: number;
    maxRuntimeSecsPerExperiment: number;
    maxProjectsPerUser: number | null;
    maxOpenJobsPerUser: number | null;
    maxOpenJobsPerProject: number | null;
    maxRunningJobsPerUser: number | null;
    maxStorageBytesPerUser: number | null;
    maxStorageBytesPerProject: number | null;
  };
  /** What-if studio sessions one user may hold per project; null: no limit. */
  studio: { maxSessionsPerUser: number | null };
  accountActivityRetentionDays: number;
  /** New dataset versions with at least this many rows are profiled by a `dataset_profile` job (0: never). */
  profileInBackgroundMinRows: number;
  reconcileIntervalSecs: number;
  /** Seconds an open job must be unchanged before the reconciler compares it with Temporal. */
  reconcileGraceSecs: number;
  /** The sweep of stored files no artifact row references: its period (0: off) and the age a file must reach first. */
  artifactSweep: { intervalSecs: number; graceSecs: number };
  synthgen: { maxRows: number; maxTrainRows: number; checkpointSecs: number; threads: number };
  /** Where reports' written summaries come from; null when none is configured. */
  llm: { apiUrl: string; apiKey: string | null; model: string } | null;
  startWorkers: string[];
  /** Bearer token `GET /metrics` requires; null: open. */
  metricsToken: string | null;
  /** A worker process's metrics port; 0: off. */
  workerMetricsPort: number;
  shutdownGraceMs: number;
  inferenceLogFlushMs: number;
  /** The named-entity model's directory (engine/privacy/ner reads it from NER_MODEL_DIR with the same default). */
  nerModelDir: string;
  /** Alert channels: whether they may reach private addresses, and after how many failures in a row one is failing. */
  alertChannels: { allowPrivateTargets: boolean; failingAfter: number };
  /** The interval of each project's alert evaluation schedule. */
  alertEvalIntervalSecs: number;
  /** Billing (platform/billing-config.ts); null: off. */
  billing: BillingConfig | null;
  /** The admin area: first-run bootstrap email, the instance settings' defaults, the service-log capture. */
  admin: {
    bootstrapEmail: string | null;
    registration: 'open' | 'invite_only' | 'closed';
    allowedEmailDomains: string[];
    defaultPlan: string | null;
    serviceLogMaxEntries: number;
  };
  /**
   * The keys of secrets stored in the database (platform/secret-box.ts): SECRETS_KEY, or null for the key file kept in
   * DATA_DIR (`keyFile`, created on first need); earlier keys still accepted for reading.
   */
  secrets: { key: Buffer | null; previousKeys: Buffer[]; keyFile: string };
}

export class ConfigError extends Error {}

/** Parses an environment (process.env by default) into the typed config. */
export function loadConfig(source: NodeJS.ProcessEnv = process.env): Config {
  const raw: Record<string, string> = {};
  for (const key of Object.keys(EnvSchema.shape)) {
    const v = source[key];
    if (v !== undefined && v !== '') raw[key] = v;
  }
  const parsed = EnvSchema.safeParse(raw);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n  ${lines.join('\n  ')}`);
  }
  const e = parsed.data;
  if (e.ARTIFACT_STORE === 's3' && !e.S3_BUCKET) throw new ConfigError('Invalid configuration:\n  S3_BUCKET: required when ARTIFACT_STORE is s3');
  let billing: BillingConfig | null;
  try {
    billing = billingConfig(e);
  } catch (err) {
    throw new ConfigError((err as Error).message);
  }
  const dataDir = path.resolve(e.DATA_DIR);
  const prefix = e.TASK_QUEUE_PREFIX;
  return {
    env: e.NODE_ENV,
    host: e.HOST,
    port: e.PORT,
    logLevel: e.LOG_LEVEL,
    dataDir,
    databaseUrl: e.DATABASE_URL,
    databasePoolSize: e.DATABASE_POOL_SIZE,
    outageWaitSecs: e.OUTAGE_WAIT_SECS,
    embeddedDbPort: e.EMBEDDED_DB_PORT,
    embeddedDbOsUser: e.EMBEDDED_DB_OS_USER,
    temporal: {
      address: e.TEMPORAL_ADDRESS,
      namespace: e.TEMPORAL_NAMESPACE,
      devPort: e.TEMPORAL_DEV_PORT,
      uiPort: e.TEMPORAL_UI_PORT,
      uiUrl: e.TEMPORAL_UI_URL ?? `http://localhost:${e.TEMPORAL_UI_PORT}`,
      gpuScheduleToStartSecs: e.GPU_SCHEDULE_TO_START_SECS,
    },
    taskQueues: { cpu: `${prefix}ml-cpu`, gpu: `${prefix}ml-gpu`, io: `${prefix}io` },
    statusTaskQueue: `${prefix}job-status`,
    training: { taskQueue: `${prefix}ml-train`, parallelism: e.TRAINING_PARALLELISM, slots: e.TRAINING_SLOTS },
    artifactDir: path.resolve(e.ARTIFACT_DIR ?? path.join(dataDir, 'artifacts')),
    artifactStore: {
      kind: e.ARTIFACT_STORE,
      s3: e.ARTIFACT_STORE === 's3' ? { bucket: e.S3_BUCKET as string, region: e.S3_REGION, endpoint: e.S3_ENDPOINT, forcePathStyle: e.S3_FORCE_PATH_STYLE ?? e.S3_ENDPOINT !== undefined } : null,
      cacheDir: path.join(dataDir, 'cache', 'artifacts'),
      cacheMaxBytes: e.ARTIFACT_CACHE_MAX_BYTES,
    },
    mail: {
      smtpUrl: e.SMTP_URL,
      from: e.MAIL_FROM,
      outboxDir: path.resolve(e.MAIL_OUTBOX_DIR ?? path.join(dataDir, 'outbox')),
      maxPerRecipientPerHour: e.MAIL_MAX_PER_RECIPIENT_PER_HOUR || null,
    },
    appBaseUrl: (e.APP_BASE_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, ''),
    auth: {
      sessionTtlHours: e.SESSION_TTL_HOURS,
      rememberTtlDays: e.REMEMBER_TTL_DAYS,
      emailVerifyTtlHours: e.EMAIL_VERIFY_TTL_HOURS,
      passwordResetTtlMinutes: e.PASSWORD_RESET_TTL_MINUTES,
      cookieSecure: e.COOKIE_SECURE,
    },
    trustProxy: e.TRUST_PROXY,
    rateLimits: {
      windowSecs: e.RATE_LIMIT_WINDOW_SECS,
      general: e.RATE_LIMIT_GENERAL,
      auth: e.RATE_LIMIT_AUTH,
      predict: e.RATE_LIMIT_PREDICT,
      train: e.RATE_LIMIT_TRAIN,
      report: e.RATE_LIMIT_REPORT,
      ai: e.RATE_LIMIT_AI,
      members: e.RATE_LIMIT_MEMBERS,
    },
    limits: {
      maxDatasetUploadBytes: e.MAX_DATASET_UPLOAD_BYTES,
      maxDatasetColumns: e.MAX_DATASET_COLUMNS,
      maxDatasetRows: e.MAX_DATASET_ROWS,
      maxDatasetCells: e.MAX_DATASET_CELLS,
      maxTrainingCells: e.MAX_TRAINING_CELLS,
      maxJsonBodyBytes: e.MAX_JSON_BODY_BYTES,
      bodyTimeoutMs: e.BODY_TIMEOUT_SECS * 1000,
      uploadIdleTimeoutMs: e.UPLOAD_IDLE_TIMEOUT_SECS * 1000,
      keepAliveTimeoutMs: e.HTTP_KEEP_ALIVE_SECS * 1000,
    },
    quotas: {
      maxModelsPerExperiment: e.MAX_MODELS_PER_EXPERIMENT,
      maxRuntimeSecsPerExperiment: e.MAX_EXPERIMENT_RUNTIME_SECS,
      maxProjectsPerUser: e.MAX_PROJECTS_PER_USER || null,
      maxOpenJobsPerUser: e.MAX_OPEN_JOBS_PER_USER || null,
      maxOpenJobsPerProject: e.MAX_OPEN_JOBS_PER_PROJECT || null,
      maxRunningJobsPerUser: e.MAX_RUNNING_JOBS_PER_USER || null,
      maxStorageBytesPerUser: e.MAX_STORAGE_BYTES_PER_USER || null,
      maxStorageBytesPerProject: e.MAX_STORAGE_BYTES_PER_PROJECT || null,
    },
    studio: { maxSessionsPerUser: e.MAX_STUDIO_SESSIONS_PER_USER || null },
    accountActivityRetentionDays: e.ACCOUNT_ACTIVITY_RETENTION_DAYS,
    profileInBackgroundMinRows: e.PROFILE_IN_BACKGROUND_MIN_ROWS,
    reconcileIntervalSecs: e.RECONCILE_INTERVAL_SECS,
    reconcileGraceSecs: e.RECONCILE_GRACE_SECS,
    artifactSweep: { intervalSecs: e.ARTIFACT_SWEEP_INTERVAL_SECS, graceSecs: e.ARTIFACT_SWEEP_GRACE_SECS },
    synthgen: { maxRows: e.SYNTHGEN_MAX_ROWS, maxTrainRows: e.SYNTHGEN_MAX_TRAIN_ROWS, checkpointSecs: e.SYNTHGEN_CHECKPOINT_SECS, threads: e.SYNTHGEN_THREADS },
    llm: e.LLM_API_URL ? { apiUrl: e.LLM_API_URL.replace(/\/+$/, ''), apiKey: e.LLM_API_KEY ?? null, model: e.LLM_MODEL } : null,
    startWorkers:
      e.START_WORKERS === 'none'
        ? []
        : e.START_WORKERS.split(',')
            .map((s) => s.trim())
            .filter(Boolean),
    metricsToken: e.METRICS_TOKEN ?? null,
    workerMetricsPort: e.WORKER_METRICS_PORT,
    shutdownGraceMs: e.SHUTDOWN_GRACE_SECS * 1000,
    inferenceLogFlushMs: e.INFERENCE_LOG_FLUSH_MS,
    // The same default as engine/privacy/ner (defaultNerModelDir), which reads the variable in every process and thread.
    nerModelDir: path.resolve(e.NER_MODEL_DIR ?? path.join(source.MLSVC_CACHE_DIR ?? path.join(os.homedir(), '.cache', 'mlsvc'), 'ner')),
    alertChannels: { allowPrivateTargets: e.ALERT_ALLOW_PRIVATE_TARGETS, failingAfter: e.ALERT_CHANNEL_FAILING_AFTER },
    alertEvalIntervalSecs: e.ALERT_EVAL_INTERVAL_SECS,
    billing,
    admin: {
      bootstrapEmail: e.ADMIN_EMAIL ? e.ADMIN_EMAIL.trim().toLowerCase() : null,
      registration: e.REGISTRATION,
      allowedEmailDomains: e.ALLOWED_EMAIL_DOMAINS.split(',')
        .map((d) => d.trim().toLowerCase().replace(/^@/, ''))
        .filter(Boolean),
      defaultPlan: e.DEFAULT_PLAN ?? null,
      serviceLogMaxEntries: e.SERVICE_LOG_MAX_ENTRIES,
    },
    secrets: {
      key: e.SECRETS_KEY ? Buffer.from(e.SECRETS_KEY, 'base64') : null,
      previousKeys: (e.SECRETS_KEY_PREVIOUS ?? '')
        .split(',')
        .map((k) => k.trim())
        .filter(Boolean)
        .map((k) => Buffer.from(k, 'base64')),
      keyFile: path.join(dataDir, 'secrets.key'),
    },
  };
}
