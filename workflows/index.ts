import { workflowsOf } from './registered';

/**
 * Every workflow the workers register, found rather than listed: the workers bundle this file with webpack
 * (`bundleWorkflowCode`), which resolves `require.context` at bundle time to every module of this folder, and each
 * module's `…Workflow` exports are registered (workflows/registered.ts). So a kind's workflow is registered by adding
 * its file. The registry names each kind's workflow by its module (services/job-kinds.ts, type-checked), and the
 * worker checks at start that every registered kind's workflow is among them (workers/workflow-check.ts).
 *
 * This module runs only inside the bundle: plain Node has no `require.context`.
 */
interface WebpackContext {
  keys(): string[];
  (key: string): Record<string, unknown>;
}

// A literal call on `require` (webpack finds it by its shape): the folder, not its subfolders, every `.js` but this one.
// workers/workflow-check.ts reads the same files.
const modules: WebpackContext = (require as unknown as { context(dir: string, deep: boolean, filter: RegExp): WebpackContext }).context('.', false, /^\.\/(?!index\.js$)[\w-]+\.js$/);

const registered = exports as Record<string, unknown>;
for (const key of modules.keys()) {
  for (const [name, workflow] of workflowsOf(modules(key))) {
    if (name in registered) throw new Error(`workflow ${name} is exported by two modules of workflows/ (${key})`);
    registered[name] = workflow;
  }
}
