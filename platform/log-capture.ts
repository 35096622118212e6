import type { DataSource } from 'typeorm';
import { storableText } from './storable-text';

/** pino's numeric levels from which entries are copied: warn (40), error (50), fatal (60). */
const CAPTURED_FROM_LEVEL = 40;
const LEVEL_NAMES: Record<number, string> = { 40: 'warn', 50: 'error', 60: 'fatal' };
/** Entries waiting for the next write; past it new ones are dropped (and counted), never awaited. */
const MAX_QUEUED = 2_000;
/** One INSERT writes at most this many. */
const BATCH = 500;
const FLUSH_EVERY_MS = 1_000;
/** How often the table is cut back to its cap. */
const PRUNE_EVERY_MS = 60_000;
/** A message longer than this is cut (a stack trace stays in `fields.err`). */
const MAX_MSG = 2_000;
/** Fields bigger than this as JSON are replaced by a note: one entry must not bloat the table. */
const MAX_FIELDS_JSON = 16_384;

/** One captured entry, as `service_log_entries` keeps it. */
export interface CapturedEntry {
  time: Date;
  level: string;
  process: string;
  pid: number | null;
  msg: string;
  fields: Record<string, unknown>;
}

/** Where a batch goes; the database's by default (see {@link LogCapture.attach}). */
export type EntryWriter = (entries: CapturedEntry[]) => Promise<void>;

/**
 * A pino destination that copies warn and error entries into `service_log_entries`, so admins read recent faults of
 * every process (`GET /api/admin/logs`). It must never block or fail the logging process: `write` only parses and
 * queues (bounded; what overflows is dropped and counted), a timer writes batches, and a failed write drops its batch
 * (counted) without logging, which would feed the failure back into the queue. The entry is the line the logger
 * wrote, so its serializers (the error allowlist of platform/logger.ts) have already applied.
 */
export class LogCapture {
  private queue: CapturedEntry[] = [];
  private writer: EntryWriter | null = null;
  private prune: (() => Promise<void>) | null = null;
  private timer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> | null = null;
  private lastPrune = 0;
  /** Entries lost to a full queue or a failed write since the start. */
  dropped = 0;
  /** Drops not yet reported in an entry of their own. */
  private unreported = 0;

  /** pino's destination interface: one JSON line per call. */
  write(line: string): void {
    try {
      // Every text as PostgreSQL can store it (a NUL or a lone surrogate would fail the whole batch's INSERT).
      const o = JSON.parse(line, (_key, v: unknown) => (typeof v === 'string' ? storableText(v) : v)) as Record<string, unknown>;
      const level = typeof o.level === 'number' ? o.level : 0;
      if (level < CAPTURED_FROM_LEVEL) return;
      if (this.queue.length >= MAX_QUEUED) {
        this.dropped += 1;
        this.unreported += 1;
        return;
      }
      const { time, level: _l, name, pid, msg, hostname: _h, ...fields } = o;
      let kept: Record<string, unknown> = fields;
      const json = JSON.stringify(fields);
      if (json.length > MAX_FIELDS_JSON) kept = { truncated: `fields of ${json.length} characters left out` };
      this.queue.push({
        time: new Date(typeof time === 'number' ? time : Date.now()),
        level: LEVEL_NAMES[level] ?? (level >= 60 ? 'fatal' : 'error'),
        process: typeof name === 'string' ? name : 'unknown',
        pid: typeof pid === 'number' ? pid : null,
        msg: typeof msg === 'string' ? msg.slice(0, MAX_MSG) : '',
        fields: kept,
      });
    } catch {
      // A line that is not JSON is not ours to keep; logging goes on.
    }
  }

  /**
   * Starts writing to a database (the API and the workers call it once they have one): batches every second, and
   * the table cut back to `maxEntries` now and then. `maxEntries` 0 turns the capture off.
   */
  attach(ds: DataSource, maxEntries: number): void {
    if (maxEntries <= 0) return this.use(null);
    this.use(
      async (entries) => {
        await ds.query(
          `INSERT INTO service_log_entries (time, level, process, pid, msg, fields)
           SELECT * FROM unnest($1::timestamptz[], $2::text[], $3::text[], $4::int[], $5::text[], $6::jsonb[])`,
          [entries.map((e) => e.time), entries.map((e) => e.level), entries.map((e) => e.process), entries.map((e) => e.pid), entries.map((e) => e.msg), entries.map((e) => JSON.stringify(e.fields))],
        );
      },
      async () => {
        await ds.query('DELETE FROM service_log_entries WHERE id <= (SELECT max(id) FROM service_log_entries) - $1', [maxEntries]);
      },
    );
  }

  /** Sets the writer (tests hand their own); null stops writing and empties the queue. */
  use(writer: EntryWriter | null, prune: (() => Promise<void>) | null = null): void {
    this.writer = writer;
    this.prune = prune;
    if (!writer) {
      this.queue = [];
      if (this.timer) clearInterval(this.timer);
      this.timer = null;
      return;
    }
    if (!this.timer) {
      this.timer = setInterval(() => void this.flush(), FLUSH_EVERY_MS);
      this.timer.unref();
    }
  }

  /** Writes what is queued (one flush at a time); resolves when done, never rejects. */
  flush(): Promise<void> {
    this.flushing ??= this.drain().finally(() => (this.flushing = null));
    return this.flushing;
  }

  private async drain(): Promise<void> {
    const writer = this.writer;
    if (!writer) return;
    if (this.unreported) {
      const n = this.unreported;
      this.unreported = 0;
      this.queue.push({ time: new Date(), level: 'warn', process: 'log-capture', pid: process.pid, msg: `${n} log entries were not captured (queue full or write failed)`, fields: { dropped: n } });
    }
    while (this.queue.length) {
      const batch = this.queue.splice(0, BATCH);
      try {
        await writer(batch);
      } catch {
        this.dropped += batch.length;
        this.unreported += batch.length;
        return;
      }
    }
    if (this.prune && Date.now() - this.lastPrune >= PRUNE_EVERY_MS) {
      this.lastPrune = Date.now();
      await this.prune().catch(() => undefined);
    }
  }

  /** Writes what is left and stops the timer (at shutdown). */
  async close(): Promise<void> {
    await this.flush();
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }
}

/** The process's capture: every logger of platform/logger.ts tees into it; it writes once attached. */
export const logCapture = new LogCapture();
