/** A workflow function as the workers register it. */
export type WorkflowFunction = (...args: never[]) => Promise<unknown>;

/**
 * The workflows one module of workflows/ registers: its exported functions named `…Workflow`. The helpers the
 * workflows share (`runJob`, `trainPlan`, `workflowIdForJob`) are exported too, but are no workflow types. The bundle's
 * entry (index.ts) and the worker's start check (workers/workflow-check.ts) both go through this, so they agree.
 */
export function workflowsOf(module: Record<string, unknown>): [string, WorkflowFunction][] {
  return Object.entries(module).filter((e): e is [string, WorkflowFunction] => e[0].endsWith('Workflow') && typeof e[1] === 'function');
}
