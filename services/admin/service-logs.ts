import type { DataSource } from 'typeorm';
import { ServiceLogEntry } from '../../entities';
import { likePattern, type Page } from '../lists';

export const SERVICE_LOG_LEVELS = ['warn', 'error', 'fatal'] as const;

export interface ServiceLogQuery {
  limit: number;
  offset: number;
  /** Only these levels; empty: all captured ones. */
  levels: string[];
  /** Substring of the message or of the entry's fields (request id, job id, error message...), case-insensitive. */
  q?: string;
  /** Substring of the process name (`api`, `worker`...). */
  process?: string;
  from?: Date;
  to?: Date;
}

/** The processes' captured warn and error entries (platform/log-capture.ts), newest first. */
export class ServiceLogs {
  constructor(private readonly ds: DataSource) {}

  async list(q: ServiceLogQuery): Promise<Page<ServiceLogEntry>> {
    const qb = this.ds.getRepository(ServiceLogEntry).createQueryBuilder('l');
    if (q.levels.length) qb.andWhere('l.level IN (:...levels)', { levels: q.levels });
    if (q.q) qb.andWhere('(l.msg ILIKE :p OR l.fields::text ILIKE :p)', { p: likePattern(q.q) });
    if (q.process) qb.andWhere('l.process ILIKE :proc', { proc: likePattern(q.process) });
    if (q.from) qb.andWhere('l.time >= :from', { from: q.from });
    if (q.to) qb.andWhere('l.time < :to', { to: q.to });
    const [items, total] = await qb.orderBy('l.time', 'DESC').addOrderBy('l.id', 'DESC').skip(q.offset).take(q.limit).getManyAndCount();
    return { items, total, limit: q.limit, offset: q.offset };
  }
}
