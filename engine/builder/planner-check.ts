/**
 * The planner's last word on its own proposals: each operation is checked against the schema the ones before it
 * leave, and one that would fail is left out rather than proposed, so a plan never carries an operation that cannot
 * run. The check is the builder's own validation (validate.ts `validateOperations`, step by step through its
 * `checkOperation`), the same one every edit and LLM answer goes through.
 */
import type { ColumnInfo } from '../data/dtypes';
import type { Operation, ProposedOperation } from './operations';
import { operationSchema } from './operations';
import { OperationError } from './errors';
import { checkOperation } from './validate';

/** What validation carries from one operation to the next. */
type ValidationState = ReturnType<typeof checkOperation>;

/**
 * The proposals that validate, in order, each against the columns the kept ones before it leave. Operations are also
 * parsed by {@link operationSchema} so their defaults are filled in, as an API answer shows them.
 */
export function checkedProposals(proposals: ProposedOperation[], columns: ColumnInfo[]): ProposedOperation[] {
  const kept: ProposedOperation[] = [];
  // validateOperations one operation at a time: the state the kept ones leave (one-hot prefixes included) is what the
  // next one meets, without re-checking the whole list for each (2,000 proposals on 2,000 columns stay quick).
  let state: ValidationState = { columns, openPrefixes: [] };
  for (const p of proposals) {
    const parsed = operationSchema.safeParse(p.operation);
    if (!parsed.success) continue;
    const operation: Operation = parsed.data;
    try {
      state = checkOperation(operation, kept.length, state.columns, {}, state.openPrefixes);
    } catch (err) {
      if (err instanceof OperationError) continue;
      throw err;
    }
    kept.push({ operation, reason: p.reason });
  }
  return kept;
}
