import { z } from 'zod';

/** The list envelope of the API's paged lists, for a response schema. */
export function pageOf<T extends z.ZodType>(item: T) {
  return z.object({ items: z.array(item), total: z.number().int(), limit: z.number().int(), offset: z.number().int() }).loose();
}
