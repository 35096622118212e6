import { Client as PgClient } from 'pg';
import type { DataSource } from 'typeorm';

/**
 * Makes a user a superuser with a plain SQL update, for tests of the admin routes (the API's own ways are the
 * first-run bootstrap and `PUT /api/admin/users/{id}` by another superuser). Takes the stack's DataSource or its
 * database URL. A session's user is read per request, so the caller's next request is a superuser's; an API key's
 * principal is cached for up to 5 s, so make the key after this call.
 */
export async function makeSuperuser(db: DataSource | string, userId: string): Promise<void> {
  const sql = 'UPDATE users SET is_superuser = true WHERE id = $1';
  if (typeof db !== 'string') {
    await db.query(sql, [userId]);
    return;
  }
  const client = new PgClient({ connectionString: db });
  await client.connect();
  try {
    await client.query(sql, [userId]);
  } finally {
    await client.end();
  }
}
