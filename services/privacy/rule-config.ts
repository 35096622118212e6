/**
 * A rule's `config`, checked for its action: only the settings the action reads, each with its type and range
 * (snake_case, as the API spells fields), so a typo or a value the action cannot use is a 422 naming the field
 * rather than a setting silently ignored at transform time. `engineConfig` turns a checked config into the engine's.
 */
import type { ActionConfig, ActionId } from '../../engine/privacy';
import { FieldIssue, ValidationError } from '../errors';

type Check = (v: unknown) => string | null;

const int =
  (min: number, max: number): Check =>
  (v) =>
    typeof v === 'number' && Number.isInteger(v) && v >= min && v <= max ? null : `must be an integer from ${min} to ${max}`;
const num =
  (minExclusive: number, max: number): Check =>
  (v) =>
    typeof v === 'number' && Number.isFinite(v) && v > minExclusive && v <= max ? null : `must be a number above ${minExclusive} and at most ${max}`;
const oneOf =
  (...values: (string | boolean)[]): Check =>
  (v) =>
    values.includes(v as string) ? null : `must be one of ${values.map((x) => JSON.stringify(x)).join(', ')}`;
const text =
  (min: number, max: number): Check =>
  (v) =>
    typeof v === 'string' && [...v].length >= min && [...v].length <= max ? null : `must be a text of ${min} to ${max} characters`;
const bool: Check = (v) => (typeof v === 'boolean' ? null : 'must be true or false');

/** Per action: API key → [engine key, check]. */
const SETTINGS: Record<ActionId, Record<string, [keyof ActionConfig | 'algorithm', Check]>> = {
  mask: { char: ['char', text(1, 1)], visible: ['visible', int(0, 64)], from: ['from', oneOf('start', 'end')], keep_separators: ['keepSeparators', bool] },
  // HMAC-SHA256 is the one algorithm: `algorithm` is accepted for clients that name it.
  hash: { length: ['length', int(8, 64)], prefix: ['prefix', text(0, 32)], algorithm: ['algorithm', oneOf('hmac-sha256', 'sha256')] },
  redact: { replacement: ['replacement', text(0, 200)] },
  encrypt: {},
  generalize: {
    date_to: ['dateTo', oneOf('month', 'year')],
    age_band: ['ageBand', int(1, 100)],
    postal_prefix: ['postalPrefix', int(1, 10)],
    grid_degrees: ['gridDegrees', num(0, 180)],
    ipv4_prefix: ['ipv4Prefix', int(0, 32)],
  },
  suppress: { scope: ['scope', oneOf('cell', 'column')] },
  pseudonymize: {},
};

/** The config as given when it fits the action; 422 naming each field that does not. */
export function checkRuleConfig(action: ActionId, config: Record<string, unknown>, loc: (string | number)[] = ['body', 'config']): Record<string, unknown> {
  const allowed = SETTINGS[action];
  const issues: FieldIssue[] = [];
  for (const [key, value] of Object.entries(config)) {
    const setting = Object.hasOwn(allowed, key) ? allowed[key] : undefined;
    if (!setting) {
      const known = Object.keys(allowed);
      issues.push({ loc: [...loc, key], msg: `${action} has no setting ${key}${known.length ? ` (its settings: ${known.join(', ')})` : ' (it takes none)'}`, type: 'value_error' });
      continue;
    }
    const problem = setting[1](value);
    if (problem) issues.push({ loc: [...loc, key], msg: `${key} ${problem}`, type: 'value_error' });
  }
  if (issues.length) throw new ValidationError(issues.slice(0, 20));
  return config;
}

/** The engine's spelling of a checked config. */
export function engineConfig(action: ActionId, config: Record<string, unknown>): ActionConfig {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(config)) {
    const setting = Object.hasOwn(SETTINGS[action], key) ? SETTINGS[action][key] : undefined;
    if (setting && setting[0] !== 'algorithm') out[setting[0]] = value;
  }
  return out as ActionConfig;
}
