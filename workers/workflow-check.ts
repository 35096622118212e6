import { readdirSync } from 'node:fs';
import path from 'node:path';
import { JOB_KINDS_REGISTRY, REGISTERED_JOB_KINDS } from '../services/job-kinds';
import { workflowsOf } from '../workflows/registered';

/** The compiled workflows the bundle's `require.context` takes (workflows/index.ts): the folder's own `.js` files. */
const WORKFLOW_MODULE = /^(?!index\.js$)[\w-]+\.js$/;

/**
 * Refuses to start a worker whose workflows lack one the registry names: the registry's `workflowType` is checked
 * against its module by the compiler, but only this sees what the bundle takes (a workflow in a subfolder, or named
 * other than `…Workflow`, compiles and is never registered). Loads the same modules in Node, outside the sandbox.
 */
export function assertRegisteredWorkflows(dir = path.join(__dirname, '..', 'workflows')): void {
  const exported = new Set<string>();
  for (const file of readdirSync(dir).filter((f) => WORKFLOW_MODULE.test(f))) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- the workflows are the folder's modules, found here as the bundle finds them
    for (const [name] of workflowsOf(require(path.join(dir, file)) as Record<string, unknown>)) exported.add(name);
  }
  const missing = REGISTERED_JOB_KINDS.filter((kind) => !exported.has(JOB_KINDS_REGISTRY[kind].workflowType)).map((kind) => `${kind} (${JOB_KINDS_REGISTRY[kind].workflowType})`);
  if (missing.length) throw new Error(`no module of workflows/ exports the workflow of ${missing.join(', ')}: the workers would not run these kinds`);
}
