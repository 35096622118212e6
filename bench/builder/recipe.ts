/**
 * The benchmark's recipe: five operations over the messy CSV (generate.ts), each with work to do on every row, in the
 * builder steps a person would put them in. The engine run executes them as one list in this order; the API run
 * PATCHes each step with its own and executes the steps in order.
 */
import { Operation, OperationInput, operationSchema, StepName } from '../../engine/builder';

export const RECIPE_STEPS: Partial<Record<StepName, OperationInput[]>> = {
  clean: [
    // Every column: a hash aggregate over all ten, keeping the first of each group in file order.
    { op: 'deduplicate' },
    { op: 'parse_dates', column: 'signup', format: '%d/%m/%Y' },
    // An exact median over ~9M values, then a second pass to fill them.
    { op: 'impute', column: 'income', strategy: 'median', indicator: true },
  ],
  transform: [{ op: 'derive', name: 'amount_per_item', expression: 'amount / greatest(quantity, 1)' }],
  features: [{ op: 'one_hot_encode', column: 'channel', max_categories: 12 }],
};

/** The recipe as one list, defaults filled in (what `executeOperations` takes). */
export function recipeOperations(): Operation[] {
  return Object.values(RECIPE_STEPS)
    .flat()
    .map((o) => operationSchema.parse(o));
}
