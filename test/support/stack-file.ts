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

export const STACK_FILE = path.join(os.tmpdir(), `mlsvc-test-stack-${process.getuid?.() ?? 0}.json`);
