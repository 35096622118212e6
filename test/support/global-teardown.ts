import fs from 'node:fs';
import type { DevServer } from '../../platform/temporal-dev';
import { stopLocalPostgres } from './local-postgres';
import { killLeftovers } from './processes';
import { stackFile, StackInfo } from './stack-file';

export default async function globalTeardown(): Promise<void> {
  const g = globalThis as Record<string, unknown>;
  const file = stackFile();
  const info = JSON.parse(fs.readFileSync(file, 'utf8')) as StackInfo;
  await (g.__temporalDev as DevServer | undefined)?.stop();
  if (info.startedPostgresDir) stopLocalPostgres(info.startedPostgresDir);
  // Jest itself ends (forceExit in jest.config.js) even when a test left a Temporal worker running in this process.
  killLeftovers((line) => console.error(line));
  fs.rmSync(info.workflowBundlePath, { force: true });
  fs.rmSync(file, { force: true });
}
