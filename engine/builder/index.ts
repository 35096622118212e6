/** The builder's engine: a closed set of typed data-preparation operations, validated, previewed and run by DuckDB. */
export * from './operations';
export { planStep, PlannerFacts, expressionIdentifier } from './planner';
export { gatherPlannerFacts } from './planner-facts';
export { OperationError, ExpressionError, OperationsAbortedError } from './errors';
export { parseExpression, compileExpression, expressionColumns, TypedExpression, ValueType } from './expression';
export { FUNCTIONS } from './expression-functions';
export { validateOperations, checkOperation } from './validate';
export { executeOperations, previewOperations, ExecuteParams, PreviewParams, PreviewResult, ProgressFn, PREVIEW_SAMPLE_ROWS, PREVIEW_ROWS } from './execute';
export { ExecutionSummary } from './summary';
