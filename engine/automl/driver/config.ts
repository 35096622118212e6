/**
 * The experiment `config` object of the spec: keys, defaults, ranges and the metrics allowed
 * per problem kind. Parsed once at experiment creation (the API answers 422 with the key) and
 * stored normalized, so workers never see a raw config.
 */
export const ALGOS = ['GBM', 'XGBoost', 'DRF', 'DeepLearning', 'GLM', 'StackedEnsemble'] as const;
export type AlgoId = (typeof ALGOS)[number];

/** The most models one experiment may ask for (the account quota cap of the spec). */
export const MAX_MODELS_CAP = 500;

export type ProblemType = 'classification' | 'regression';
export type Kind = 'binary' | 'multiclass' | 'regression';

export const SORT_METRICS: Record<Kind, string[]> = {
  binary: ['AUC', 'AUCPR', 'logloss', 'mean_per_class_error', 'accuracy', 'MCC'],
  multiclass: ['logloss', 'mean_per_class_error', 'accuracy'],
  regression: ['RMSE', 'MSE', 'MAE', 'RMSLE', 'mean_residual_deviance', 'R2'],
};
export const STOPPING_METRICS = ['AUTO', 'deviance', 'logloss', 'RMSE', 'AUC'] as const;
export const DISTRIBUTIONS = ['gaussian', 'poisson', 'gamma', 'tweedie', 'huber', 'quantile', 'laplace'] as const;
/** Metrics where a larger value is better; every other metric is minimized. */
export const HIGHER_IS_BETTER = new Set(['AUC', 'AUCPR', 'accuracy', 'MCC', 'R2']);

export interface AutoMLConfig {
  max_runtime_secs: number;
  max_models: number;
  max_runtime_secs_per_model: number | null;
  /** Resolved: never AUTO once the kind is known. */
  sort_metric: string;
  seed: number;
  balance_classes: boolean;
  exclude_algos: AlgoId[];
  /** Resolved: -1 becomes 5 (or 0 on very small data is not done: H2O keeps 5). */
  nfolds: number;
  stopping_rounds: number;
  stopping_metric: (typeof STOPPING_METRICS)[number];
  stopping_tolerance: number;
  exploitation_ratio: number;
  distribution: (typeof DISTRIBUTIONS)[number] | null;
  keep_cross_validation_predictions: boolean;
  keep_cross_validation_models: boolean;
  verbosity: 'debug' | 'info' | 'warn';
}

/**
 * Defaults of the config keys a user may omit (what `parseAutoMLConfig` fills in before the
 * problem kind resolves `AUTO` and `-1`). Published by `GET /api/experiments/capabilities`.
 */
export const CONFIG_DEFAULTS = Object.freeze({
  max_runtime_secs: 3600,
  max_models: 20,
  max_runtime_secs_per_model: null,
  sort_metric: 'AUTO',
  seed: 42,
  balance_classes: false,
  exclude_algos: [] as AlgoId[],
  nfolds: 5,
  stopping_rounds: 3,
  stopping_metric: 'AUTO' as (typeof STOPPING_METRICS)[number],
  stopping_tolerance: 0.001,
  exploitation_ratio: 0,
  distribution: null,
  keep_cross_validation_predictions: true,
  keep_cross_validation_models: false,
  verbosity: 'info' as AutoMLConfig['verbosity'],
});

/** Ranges of the bounded config keys. */
export const CONFIG_LIMITS = Object.freeze({
  max_models_cap: MAX_MODELS_CAP,
  max_runtime_secs_max: 7 * 86_400,
  max_runtime_secs_per_model_max: 86_400,
  nfolds_max: 20,
  stopping_rounds_max: 1000,
});

export interface ConfigIssue {
  loc: string[];
  msg: string;
}

type Raw = Record<string, unknown>;

const KNOWN_KEYS = new Set([
  'max_runtime_secs',
  'max_models',
  'max_runtime_secs_per_model',
  'sort_metric',
  'seed',
  'balance_classes',
  'exclude_algos',
  'nfolds',
  'stopping_rounds',
  'stopping_metric',
  'stopping_tolerance',
  'exploitation_ratio',
  'distribution',
  'keep_cross_validation_predictions',
  'keep_cross_validation_models',
  'verbosity',
]);

/**
 * Validates and fills an experiment config. `kind` is the detected problem kind (it decides
 * which sort metrics and distributions are allowed). Returns the issues instead of throwing so
 * the API can answer them all at once.
 */
export function parseAutoMLConfig(input: unknown, kind: Kind, opts: { maxModelsCap?: number; maxRuntimeSecsCap?: number } = {}): { config?: AutoMLConfig; issues: ConfigIssue[] } {
  const issues: ConfigIssue[] = [];
  const runtimeCap = Math.min(CONFIG_LIMITS.max_runtime_secs_max, opts.maxRuntimeSecsCap ?? Infinity);
  const raw: Raw = input === undefined || input === null ? {} : (input as Raw);
  if (typeof raw !== 'object' || Array.isArray(raw)) return { issues: [{ loc: ['config'], msg: 'config must be an object' }] };
  for (const k of Object.keys(raw)) if (!KNOWN_KEYS.has(k)) issues.push({ loc: ['config', k], msg: `Unknown config key ${k}` });

  const int = (key: string, def: number, min: number, max: number): number => {
    const v = raw[key];
    if (v === undefined || v === null) return def;
    if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max) {
      issues.push({ loc: ['config', key], msg: `${key} must be an integer between ${min} and ${max}` });
      return def;
    }
    return v;
  };
  const num = (key: string, def: number, min: number, max: number): number => {
    const v = raw[key];
    if (v === undefined || v === null) return def;
    if (typeof v !== 'number' || !Number.isFinite(v) || v < min || v > max) {
      issues.push({ loc: ['config', key], msg: `${key} must be a number between ${min} and ${max}` });
      return def;
    }
    return v;
  };
  const bool = (key: string, def: boolean): boolean => {
    const v = raw[key];
    if (v === undefined || v === null) return def;
    if (typeof v !== 'boolean') {
      issues.push({ loc: ['config', key], msg: `${key} must be a boolean` });
      return def;
    }
    return v;
  };
  const oneOf = <T extends string>(key: string, allowed: readonly T[], def: T): T => {
    const v = raw[key];
    if (v === undefined || v === null) return def;
    if (typeof v !== 'string' || !(allowed as readonly string[]).includes(v)) {
      issues.push({ loc: ['config', key], msg: `${key} must be one of ${allowed.join(', ')}` });
      return def;
    }
    return v as T;
  };

  const maxModels = int('max_models', CONFIG_DEFAULTS.max_models, 1, opts.maxModelsCap ?? CONFIG_LIMITS.max_models_cap);
  const perModel =
    raw.max_runtime_secs_per_model === undefined || raw.max_runtime_secs_per_model === null ? null : int('max_runtime_secs_per_model', 0, 1, CONFIG_LIMITS.max_runtime_secs_per_model_max);
  const allowedSort = ['AUTO', ...SORT_METRICS[kind], 'deviance', ...(['huber', 'quantile'].includes(String(raw.distribution)) ? ['quantile_loss'] : [])];
  const sort = oneOf('sort_metric', allowedSort, CONFIG_DEFAULTS.sort_metric);
  let exclude: AlgoId[] = [];
  if (raw.exclude_algos !== undefined && raw.exclude_algos !== null) {
    const e = raw.exclude_algos;
    if (!Array.isArray(e) || e.some((a) => typeof a !== 'string' || !(ALGOS as readonly string[]).includes(a))) {
      issues.push({ loc: ['config', 'exclude_algos'], msg: `exclude_algos must be a list of ${ALGOS.join(', ')}` });
    } else {
      exclude = [...new Set(e as AlgoId[])];
      if (exclude.length === ALGOS.length) issues.push({ loc: ['config', 'exclude_algos'], msg: 'exclude_algos excludes every algorithm' });
    }
  }
  let distribution: AutoMLConfig['distribution'] = null;
  if (raw.distribution !== undefined && raw.distribution !== null) {
    if (kind !== 'regression') issues.push({ loc: ['config', 'distribution'], msg: 'distribution applies to regression only' });
    else distribution = oneOf('distribution', DISTRIBUTIONS, 'gaussian');
  }
  const nfoldsRaw = int('nfolds', CONFIG_DEFAULTS.nfolds, -1, CONFIG_LIMITS.nfolds_max);
  if (nfoldsRaw === 1) issues.push({ loc: ['config', 'nfolds'], msg: 'nfolds must be -1 (auto), 0 (no cross-validation) or at least 2' });
  const balance = bool('balance_classes', CONFIG_DEFAULTS.balance_classes);
  if (balance && kind === 'regression') issues.push({ loc: ['config', 'balance_classes'], msg: 'balance_classes applies to classification only' });

  const config: AutoMLConfig = {
    max_runtime_secs: int('max_runtime_secs', Math.min(CONFIG_DEFAULTS.max_runtime_secs, runtimeCap), 1, runtimeCap),
    max_models: maxModels,
    max_runtime_secs_per_model: perModel,
    sort_metric: sort === 'AUTO' ? defaultSortMetric(kind) : sort,
    seed: int('seed', CONFIG_DEFAULTS.seed, -(2 ** 31), 2 ** 31 - 1),
    balance_classes: balance,
    exclude_algos: exclude,
    nfolds: nfoldsRaw === -1 ? 5 : nfoldsRaw,
    stopping_rounds: int('stopping_rounds', CONFIG_DEFAULTS.stopping_rounds, 0, CONFIG_LIMITS.stopping_rounds_max),
    stopping_metric: oneOf('stopping_metric', STOPPING_METRICS, CONFIG_DEFAULTS.stopping_metric),
    stopping_tolerance: num('stopping_tolerance', CONFIG_DEFAULTS.stopping_tolerance, 0, 1),
    exploitation_ratio: num('exploitation_ratio', CONFIG_DEFAULTS.exploitation_ratio, 0, 1),
    distribution,
    keep_cross_validation_predictions: bool('keep_cross_validation_predictions', CONFIG_DEFAULTS.keep_cross_validation_predictions),
    keep_cross_validation_models: bool('keep_cross_validation_models', CONFIG_DEFAULTS.keep_cross_validation_models),
    verbosity: oneOf('verbosity', ['debug', 'info', 'warn'] as const, CONFIG_DEFAULTS.verbosity),
  };
  return issues.length ? { issues } : { config, issues };
}

/** AUTO: AUC for binary, logloss for multiclass (as H2O), RMSE for regression. */
export function defaultSortMetric(kind: Kind): string {
  return kind === 'binary' ? 'AUC' : kind === 'multiclass' ? 'logloss' : 'RMSE';
}

/** Maps the spec's problem_type (with its aliases) to classification or regression, or null. */
export function normalizeProblemType(p: string): ProblemType | null {
  if (p === 'classification' || p === 'binary' || p === 'multiclass') return 'classification';
  if (p === 'regression') return 'regression';
  return null;
}
