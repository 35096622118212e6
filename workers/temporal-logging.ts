import { IllegalStateError, LogLevel, LogMetadata, Logger as TemporalLogger, Runtime } from '@temporalio/worker';
import type { Logger } from '../platform/logger';

const PINO_LEVEL: Record<LogLevel, 'trace' | 'debug' | 'info' | 'warn' | 'error'> = { TRACE: 'trace', DEBUG: 'debug', INFO: 'info', WARN: 'warn', ERROR: 'error' };

/** Temporal's logger interface over pino, so SDK and activity logs share its error serializer. */
class PinoTemporalLogger implements TemporalLogger {
  constructor(private readonly out: Logger) {}
  log(level: LogLevel, message: string, meta?: LogMetadata): void {
    this.out[PINO_LEVEL[level]]({ ...meta }, message);
  }
  trace(message: string, meta?: LogMetadata): void {
    this.out.trace({ ...meta }, message);
  }
  debug(message: string, meta?: LogMetadata): void {
    this.out.debug({ ...meta }, message);
  }
  info(message: string, meta?: LogMetadata): void {
    this.out.info({ ...meta }, message);
  }
  warn(message: string, meta?: LogMetadata): void {
    this.out.warn({ ...meta }, message);
  }
  error(message: string, meta?: LogMetadata): void {
    this.out.error({ ...meta }, message);
  }
}

/**
 * Sends the Temporal SDK's logs (an activity failure is logged with its error) through our
 * logger. Temporal's default logger prints errors whole with util.inspect, bound SQL
 * parameters included. The runtime is a process singleton set before the first connection;
 * when one exists already (a second worker set in this process) it is kept.
 */
export function routeTemporalLogs(log: Logger): void {
  try {
    Runtime.install({ logger: new PinoTemporalLogger(log) });
  } catch (err) {
    if (!(err instanceof IllegalStateError)) throw err;
  }
}
