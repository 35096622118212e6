import { createHash } from 'node:crypto';
import type { DataSource } from 'typeorm';
import type { Logger } from './logger';
import type { Mailer } from './mail';

const HOUR_MS = 3_600_000;
/** How often a process deletes windows no longer counted (at most). */
const SWEEP_EVERY_MS = 10 * 60_000;

/**
 * A mailer that sends at most `perHour` mails to one address in a fixed hour window: asking for
 * a reset link (or an activation link, or inviting an address) over and over must not flood a
 * mailbox. The count is kept in PostgreSQL (`mail_recipient_windows`, the address as its SHA-256)
 * so every API process shares it. A mail past the limit is not sent and the log says so; the
 * caller is not told (its request was answered before, and alike for every address: forgot-
 * password reveals nothing). `perHour` null: every mail is sent.
 */
export function throttledMailer(inner: Mailer, ds: DataSource, perHour: number | null, log: Logger): Mailer {
  if (perHour === null) return inner;
  let lastSweep = 0;
  return {
    async send(msg) {
      const now = Date.now();
      const windowStart = new Date(Math.floor(now / HOUR_MS) * HOUR_MS);
      const recipient = createHash('sha256').update(msg.to.trim().toLowerCase()).digest('hex');
      const [row] = await ds.query(
        `INSERT INTO mail_recipient_windows (recipient_hash, window_start, count) VALUES ($1, $2, 1)
         ON CONFLICT (recipient_hash, window_start) DO UPDATE SET count = mail_recipient_windows.count + 1
         RETURNING count`,
        [recipient, windowStart],
      );
      if (now - lastSweep > SWEEP_EVERY_MS) {
        lastSweep = now;
        void ds.query('DELETE FROM mail_recipient_windows WHERE window_start < $1', [new Date(windowStart.getTime() - HOUR_MS)]).catch(() => undefined);
      }
      if (Number(row.count) > perHour) {
        log.warn({ to: msg.to, subject: msg.subject, limit: perHour }, 'mail not sent: this address had its mails for the hour');
        return;
      }
      await inner.send(msg);
    },
  };
}
