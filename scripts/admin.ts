import 'reflect-metadata';
import fs from 'node:fs';
import path from 'node:path';
import type { DataSource } from 'typeorm';
import { loadConfig, type Config } from '../platform/config';
import { connectAndMigrate, createDataSource } from '../platform/database';
import { embeddedDbDir, startEmbeddedPostgres } from '../platform/embedded-postgres';
import { createLogger } from '../platform/logger';
import { AccountActivity } from '../services/account-activity';
import { Superusers } from '../services/admin/superusers';

const USAGE = 'usage: node dist/scripts/admin.js grant-superuser <email>';

/**
 * The operator's door to the admin area: `grant-superuser <email>` makes a registered account a superuser (a
 * `superuser_granted` security event, `via: cli`), whatever superusers exist. It connects to DATABASE_URL, else to
 * the embedded server `npm start` runs (or starts it for the command when it is not running).
 */
async function main(argv: string[]): Promise<number> {
  const [command, email] = argv;
  if (command !== 'grant-superuser' || !email) {
    console.error(USAGE);
    return 2;
  }
  const config = loadConfig();
  const log = createLogger('warn', 'admin-cli');
  const { url, stop } = await database(config, log);
  const ds = createDataSource({ url, poolSize: 1 });
  try {
    await connectAndMigrate(ds);
    return await grant(ds, config, email, log);
  } finally {
    await ds.destroy();
    await stop();
  }
}

async function grant(ds: DataSource, config: Config, email: string, log: ReturnType<typeof createLogger>): Promise<number> {
  const superusers = new Superusers(ds, new AccountActivity(ds, log, config.accountActivityRetentionDays), null);
  if (!(await superusers.grantByEmail(email, 'cli'))) {
    console.error(`No account has the email ${email}: register it first`);
    return 1;
  }
  console.log(`${email} is a superuser`);
  return 0;
}

/** DATABASE_URL; else the running embedded server (its password is in its cluster folder); else one started for now. */
async function database(config: Config, log: ReturnType<typeof createLogger>): Promise<{ url: string; stop: () => Promise<void> }> {
  if (config.databaseUrl) return { url: config.databaseUrl, stop: async () => undefined };
  const dir = embeddedDbDir(config.dataDir);
  const marker = path.join(dir, 'mlsvc-embedded.json');
  if (fs.existsSync(marker)) {
    const { password } = JSON.parse(fs.readFileSync(marker, 'utf8')) as { password: string };
    const url = `postgres://postgres:${password}@127.0.0.1:${config.embeddedDbPort}/postgres`;
    const probe = createDataSource({ url, poolSize: 1 });
    try {
      await probe.initialize();
      await probe.destroy();
      return { url, stop: async () => undefined };
    } catch {
      // Not running: started below for this command only.
    }
  }
  const pg = await startEmbeddedPostgres({ dir, port: 0, osUser: config.embeddedDbOsUser, log });
  return { url: pg.url, stop: () => pg.stop() };
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  },
);
