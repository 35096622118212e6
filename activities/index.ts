import { readdirSync } from 'node:fs';
import path from 'node:path';
import { REGISTERED_JOB_KINDS } from '../services/job-kinds';
import { TrainingPool } from './automl-train/training-pool';
import type { ActivityDeps } from './deps';
import { configureOutageWait } from './failures';
import { createJobLifecycleActivities } from './job-lifecycle';

export type { ActivityDeps };
export { TrainingPool };

/** An activity as the worker registers it. */
type Activity = (...args: never[]) => Promise<unknown>;

/** What a kind's folder exports: `export const activities = create<Kind>Activities`. */
interface KindModule {
  activities?: (deps: ActivityDeps) => object;
  /**
   * Set (`export const scheduled = true`) by a folder whose activities run on a Temporal Schedule rather than as a job:
   * alert evaluation runs every minute per project, which as a job kind would write a jobs row a minute. Such a folder
   * has no registry entry, and the check below lets it be.
   */
  scheduled?: boolean;
}

function load(folder: string): KindModule {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the kinds are the folders, found at start
  return require(path.join(__dirname, folder, 'index')) as KindModule;
}

/**
 * The folder under activities/ of each job kind (`drift_compute` → `drift-compute/`): the one home of its worker
 * side. Every registered kind must have one, and every folder is a kind's, so a kind's activities are registered by
 * adding its folder, and a folder without a registry entry (or the reverse) stops the worker at its start, unless the
 * folder declares itself `scheduled` (a scheduled activity set, no job kind).
 */
function kindFolders(): string[] {
  const folders = readdirSync(__dirname, { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();
  const expected = REGISTERED_JOB_KINDS.map((k) => k.replace(/_/g, '-')).sort();
  const kinds = folders.filter((f) => expected.includes(f) || load(f).scheduled !== true);
  if (kinds.join() !== expected.join()) {
    throw new Error(`activities/ holds one folder per registered job kind: expected ${expected.join(', ')}; found ${folders.join(', ')}`);
  }
  return folders;
}

/**
 * All activities, built from injected dependencies (one set per worker process): the job lifecycle's status writes,
 * then each kind folder's. The folder's index is required by its full path, so a stale `<kind>.js` left in a build
 * folder from before the kind became a folder is never loaded instead.
 */
export function createActivities(deps: ActivityDeps): Record<string, Activity> {
  if (deps.outageWait) configureOutageWait(deps.outageWait);
  const all: Record<string, Activity> = { ...createJobLifecycleActivities(deps.services) };
  for (const folder of kindFolders()) {
    const kind = load(folder);
    if (typeof kind.activities !== 'function') throw new Error(`activities/${folder}/index exports no \`activities\` factory`);
    for (const [name, fn] of Object.entries(kind.activities(deps))) {
      if (name in all) throw new Error(`activity ${name} is defined twice (activities/${folder})`);
      all[name] = fn as Activity;
    }
  }
  return all;
}
