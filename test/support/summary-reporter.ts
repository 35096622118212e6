import fs from 'node:fs';

interface AggregatedResult {
  numPassedTests: number;
  numFailedTests: number;
  numPendingTests: number;
  numTodoTests: number;
  numRuntimeErrorTestSuites: number;
}

/**
 * Prints one plain line, `Tests: N passed, N failed, N skipped`, that any CI reader understands (Jest's own summary
 * says "N passed, N total"). A suite that fails to load counts as a failure. With `TEST_SUMMARY_FILE` set, the line
 * is also written there, so a script can print it last, after anything Jest logs on its way out.
 */
export default class SummaryReporter {
  onRunComplete(_contexts: unknown, results: AggregatedResult): void {
    const failed = results.numFailedTests + results.numRuntimeErrorTestSuites;
    const line = `Tests: ${results.numPassedTests} passed, ${failed} failed, ${results.numPendingTests + results.numTodoTests} skipped`;
    process.stdout.write(`${line}\n`);
    const file = process.env.TEST_SUMMARY_FILE;
    if (file) fs.writeFileSync(file, `${line}\n`);
  }
}
