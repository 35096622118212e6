import fs from 'node:fs';
import type { DevServer } from '../../platform/temporal-dev';
import { stopLocalPostgres } from './local-postgres';
import { STACK_FILE, StackInfo } from './stack-file';

export default async function globalTeardown(): Promise<void> {
  const g = globalThis as Record<string, unknown>;
  const info = JSON.parse(fs.readFileSync(STACK_FILE, 'utf8')) as StackInfo;
  await (g.__temporalDev as DevServer | undefined)?.stop();
  if (info.startedPostgresDir) stopLocalPostgres(info.startedPostgresDir);
  fs.rmSync(info.workflowBundlePath, { force: true });
}
