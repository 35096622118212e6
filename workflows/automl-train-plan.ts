import { CancellationScope } from '@temporalio/workflow';
import type { PreparedPlan, TrainModelInput, TrainOutcome } from '../activities/automl-train';
import type { JobProgress } from './progress';

export interface TrainPlanOptions {
  experimentId: string;
  prep: PreparedPlan;
  /** End of the experiment's time budget (workflow time, ms). */
  deadline: number;
  state: JobProgress;
  /** Model activities in flight at most. */
  parallelism: number;
  /** Trains one model (routing it to its queue). */
  train: (args: TrainModelInput) => Promise<TrainOutcome>;
  /** Says in the experiment's log that the budget stopped the plan after `trained` models. */
  logBudgetReached: (trained: number) => Promise<unknown>;
}

type Settled = { index: number; ok: true; outcome: TrainOutcome } | { index: number; ok: false; error: unknown };

/**
 * Trains the plan in its order, keeping up to `parallelism` models in flight, and resolves to how many were trained.
 *
 * - `max_models` is exact: a model is started only while trained + in flight stays under it, so however many run at
 *   once no more than `max_models` are trained; a model that fails or is skipped frees its place for the next one.
 * - The time budget stops new starts; models in flight finish or stop at their own deadline (the budget's end, or
 *   their per-model budget counted from when a worker starts them, not from when they were queued). The plan's
 *   first model has no budget deadline, so an experiment whose budget is shorter than one model still has one.
 * - A failure of one model (after its retries) cancels the others and fails the experiment; a cancel of the workflow
 *   reaches every model in flight and comes out of here as the cancellation.
 *
 * With `parallelism` 1 this is the loop the workflow had before, call for call.
 */
export async function trainPlan(o: TrainPlanOptions): Promise<number> {
  const { prep, state } = o;
  const target = Math.max(1, Math.min(prep.maxModels, prep.plan.length));
  const perModelMs = prep.perModelSecs ? prep.perModelSecs * 1000 : null;
  const running = new Map<number, Promise<Settled>>();
  let next = 0;
  let trained = 0;
  let budgetReached = false;
  const scope = new CancellationScope();
  await scope.run(async () => {
    for (;;) {
      while (!budgetReached && running.size < o.parallelism && next < prep.plan.length && trained + running.size < prep.maxModels) {
        if (Date.now() >= o.deadline) {
          budgetReached = true;
          break;
        }
        const index = next++;
        const spec = prep.plan[index];
        // The first model ignores the experiment's budget, so a budget shorter than one model (or spent while the
        // model waited for a worker) still ends with a model; H2O likewise finishes the model it started.
        const budgetEnd = index === 0 ? undefined : o.deadline;
        const args: TrainModelInput = {
          experimentId: o.experimentId,
          spec,
          sequence: index + 1,
          ...(perModelMs
            ? { deadlineMs: Math.min(budgetEnd ?? Infinity, Date.now() + perModelMs), ...(budgetEnd !== undefined ? { budgetDeadlineMs: budgetEnd } : {}), perModelMs }
            : budgetEnd !== undefined
              ? { deadlineMs: budgetEnd }
              : {}),
        };
        // Settled, never rejected: a model that fails while another is awaited must not be an unhandled rejection.
        running.set(
          index,
          o.train(args).then(
            (outcome): Settled => ({ index, ok: true, outcome }),
            (error: unknown): Settled => ({ index, ok: false, error }),
          ),
        );
      }
      if (!running.size) break;
      const names = [...running.keys()].map((i) => prep.plan[i].name);
      state.step = `training ${names.join(', ')} (${Math.max(...running.keys()) + 1}/${prep.plan.length})`;
      state.progress = Math.round((90 * trained) / target);
      const done = await Promise.race(running.values());
      running.delete(done.index);
      if (!done.ok) {
        scope.cancel();
        throw done.error;
      }
      if (done.outcome.status === 'trained') trained++;
    }
  });
  if (budgetReached && next < prep.plan.length && trained < prep.maxModels) await o.logBudgetReached(trained);
  return trained;
}
