import fs from 'node:fs';
import type { DevServer } from '../../platform/temporal-dev';
import { stopLocalPostgres } from './local-postgres';
import { stackFile, StackInfo } from './stack-file';

export default async function globalTeardown(): Promise<void> {
  const g = globalThis as Record<string, unknown>;
  const file = stackFile();
  const info = JSON.parse(fs.readFileSync(file, 'utf8')) as StackInfo;
  await (g.__temporalDev as DevServer | undefined)?.stop();
  if (info.startedPostgresDir) stopLocalPostgres(info.startedPostgresDir);
  fs.rmSync(info.workflowBundlePath, { force: true });
  fs.rmSync(file, { force: true });
}
