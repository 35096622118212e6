import os from 'node:os';
import path from 'node:path';

/** What global setup started, shared with test files through a file (Jest isolates globals). */
export interface StackInfo {
  adminDatabaseUrl: string;
  temporalAddress: string;
  workflowBundlePath: string;
  temporalCli: string;
  startedPostgresDir?: string;
}

/**
 * Per test run: global setup names the file after its own process and hands the name to the
 * test files through the environment, so two runs on one machine never share a stack.
 */
export function stackFile(): string {
  const f = process.env.MLSVC_TEST_STACK_FILE;
  if (!f) throw new Error('MLSVC_TEST_STACK_FILE is not set: run the tests through jest (global setup)');
  return f;
}

export function newStackFile(): string {
  const f = path.join(os.tmpdir(), `mlsvc-test-stack-${process.pid}.json`);
  process.env.MLSVC_TEST_STACK_FILE = f;
  return f;
}
