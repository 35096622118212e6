import pino from 'pino';

/** Structured logs (JSON lines). Children carry request ids and job ids. */
export type Logger = pino.Logger;

export function createLogger(level: string, name = 'mlsvc'): Logger {
  return pino({ name, level, base: { pid: process.pid } });
}
