import type { DataSource, EntityManager } from 'typeorm';
import { InstanceSettings } from '../../entities';
import type { Config } from '../../platform/config';
import { ValidationError } from '../errors';

export const REGISTRATION_MODES = ['open', 'invite_only', 'closed'] as const;
export type RegistrationMode = (typeof REGISTRATION_MODES)[number];

/** The instance settings as every part reads them: each one set by an admin, else its configured default. */
export interface Settings {
  registration: RegistrationMode;
  /** The plan of users (and teams) without one; null: the built-in `self_hosted` plan. */
  default_plan: string | null;
  /** Lower-cased domains registration accepts; empty: any. */
  allowed_email_domains: string[];
  /** Lifetime of a new session without `remember`. */
  session_lifetime_hours: number;
}

/** What an admin may change; an omitted field is kept, a null one goes back to its configured default. */
export type SettingsPatch = { [K in keyof Settings]?: Settings[K] | null };

/** Defaults when no configuration was registered for a data source (a script that built no services). */
const BUILT_IN: Settings = { registration: 'open', default_plan: null, allowed_email_domains: [], session_lifetime_hours: 24 };

/** Read on every registration and login: a change made elsewhere shows within this time, one made here at once. */
const CACHE_MS = 5_000;

const defaultsBySource = new WeakMap<DataSource, Settings>();
const cacheBySource = new WeakMap<DataSource, { until: number; value: Settings }>();

/** The configured defaults of the settings (REGISTRATION, DEFAULT_PLAN, ALLOWED_EMAIL_DOMAINS, SESSION_TTL_HOURS). */
export function settingDefaults(config: Config): Settings {
  return {
    registration: config.admin.registration,
    default_plan: config.admin.defaultPlan,
    allowed_email_domains: config.admin.allowedEmailDomains,
    session_lifetime_hours: config.auth.sessionTtlHours,
  };
}

/**
 * The instance settings (see common contract): the stored row merged over the configured defaults, cached briefly
 * per data source. Inside a transaction the cache may answer; a setting is never a transaction's invariant.
 */
export async function readSettings(manager: EntityManager): Promise<Settings> {
  const source = manager.connection;
  const hit = cacheBySource.get(source);
  if (hit && hit.until > Date.now()) return hit.value;
  const row = await manager.getRepository(InstanceSettings).findOneBy({ id: 1 });
  const d = defaultsBySource.get(source) ?? BUILT_IN;
  const value: Settings = {
    registration: row?.registration ?? d.registration,
    default_plan: row?.defaultPlan ?? d.default_plan,
    allowed_email_domains: row?.allowedEmailDomains ?? d.allowed_email_domains,
    session_lifetime_hours: row?.sessionLifetimeHours ?? d.session_lifetime_hours,
  };
  cacheBySource.set(source, { until: Date.now() + CACHE_MS, value });
  return value;
}

/** The domain part of an email, lower-cased. */
export function emailDomain(email: string): string {
  return email.slice(email.lastIndexOf('@') + 1).toLowerCase();
}

/** Whether registration accepts this email's domain (an exact match or a subdomain of a listed domain). */
export function domainAllowed(settings: Settings, email: string): boolean {
  if (!settings.allowed_email_domains.length) return true;
  const domain = emailDomain(email);
  return settings.allowed_email_domains.some((d) => domain === d || domain.endsWith(`.${d}`));
}

/**
 * Whether a plan of this name exists: the `plans` table's rows, the built-in `self_hosted` plan, or, on a database
 * without a `plans` table, any name (the plan is then free text until plans are managed).
 */
async function planExists(em: EntityManager, name: string): Promise<boolean> {
  if (name === 'self_hosted') return true;
  const [{ t }] = (await em.query(`SELECT to_regclass('plans') IS NOT NULL AS t`)) as { t: boolean }[];
  if (!t) return true;
  const rows = (await em.query('SELECT 1 FROM plans WHERE name = $1', [name])) as unknown[];
  return rows.length > 0;
}

/** Reads and changes the instance settings (`GET`/`PUT /api/admin/settings`). */
export class InstanceSettingsService {
  constructor(
    private readonly ds: DataSource,
    config: Config,
  ) {
    defaultsBySource.set(ds, settingDefaults(config));
  }

  read(): Promise<Settings> {
    return readSettings(this.ds.manager);
  }

  /** The configured defaults, for the admin page to show what a cleared setting falls back to. */
  defaults(): Settings {
    return defaultsBySource.get(this.ds) ?? BUILT_IN;
  }

  /** Applies an admin's change; the new settings apply in this process at once. */
  async update(adminId: string, patch: SettingsPatch): Promise<Settings> {
    await this.ds.transaction(async (em) => {
      if (patch.default_plan && !(await planExists(em, patch.default_plan))) {
        throw new ValidationError([{ loc: ['body', 'default_plan'], msg: `Unknown plan: ${patch.default_plan}`, type: 'value_error' }]);
      }
      const repo = em.getRepository(InstanceSettings);
      const row =
        (await repo.findOne({ where: { id: 1 }, lock: { mode: 'pessimistic_write' } })) ??
        repo.create({ id: 1, registration: null, defaultPlan: null, allowedEmailDomains: null, sessionLifetimeHours: null });
      if (patch.registration !== undefined) row.registration = patch.registration;
      if (patch.default_plan !== undefined) row.defaultPlan = patch.default_plan;
      if (patch.allowed_email_domains !== undefined) row.allowedEmailDomains = patch.allowed_email_domains && [...new Set(patch.allowed_email_domains.map(normalizeDomain))];
      if (patch.session_lifetime_hours !== undefined) row.sessionLifetimeHours = patch.session_lifetime_hours;
      row.updatedBy = adminId;
      await repo.save(row);
    });
    cacheBySource.delete(this.ds);
    return this.read();
  }
}

/** `@Example.COM` and `example.com` are one domain. */
export function normalizeDomain(d: string): string {
  return d.trim().toLowerCase().replace(/^@/, '');
}
