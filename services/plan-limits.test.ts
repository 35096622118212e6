import { CONFIG_LIMITS } from '../engine/automl';
import { mostGenerous, resolveLimits, type ResolvedLimits } from './plan-limits';

/** What an instance's configuration might give the built-in plan. */
const configured: ResolvedLimits = {
  max_projects: 1000,
  max_models: 100,
  max_runtime_secs: 86_400,
  max_concurrent_jobs: 100,
  max_open_jobs_per_project: 200,
  max_running_jobs: 1,
  max_upload_bytes: 100 * 1024 * 1024,
  predictions_per_minute: null,
  max_storage_bytes: 100 * 1024 ** 3,
  max_storage_bytes_per_project: 50 * 1024 ** 3,
};

describe('plan limits', () => {
  it('a key left out takes the configured value, null means no limit, and the engine caps stay caps', () => {
    const r = resolveLimits({ max_projects: 3, max_storage_bytes: null, max_models: null, max_runtime_secs: 10 ** 9, predictions_per_minute: 60 }, configured);
    expect(r).toEqual({
      ...configured,
      max_projects: 3,
      max_storage_bytes: null,
      max_models: CONFIG_LIMITS.max_models_cap,
      max_runtime_secs: CONFIG_LIMITS.max_runtime_secs_max,
      predictions_per_minute: 60,
    });
  });

  it('a stored null for the upload size, which the routes refuse, falls back to the configured size', () => {
    expect(resolveLimits({ max_upload_bytes: null }, configured).max_upload_bytes).toBe(configured.max_upload_bytes);
  });

  it('the most generous of several plans is taken limit by limit: no limit beats a number, the larger number the smaller', () => {
    const a = resolveLimits({ max_projects: 2, max_concurrent_jobs: 5, predictions_per_minute: 10, max_models: 3 }, configured);
    const b = resolveLimits({ max_projects: 7, max_concurrent_jobs: 1, predictions_per_minute: null, max_models: 2 }, configured);
    expect(mostGenerous([a, b])).toMatchObject({ max_projects: 7, max_concurrent_jobs: 5, predictions_per_minute: null, max_models: 3 });
    expect(mostGenerous([a])).toEqual(a);
  });
});
