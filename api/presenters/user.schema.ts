import { z } from 'zod';

/**
 * The JSON shape of `presentUser(u, true)` (api/presenters/user.ts), for the OpenAPI document and through it the web
 * UI's generated types. The object stays open: a client ignores what it does not know.
 */
export const fullUserSchema = z
  .object({
    id: z.string(),
    email: z.string(),
    name: z.string(),
    is_superuser: z.boolean(),
    email_verified_at: z.iso.datetime({ offset: true }).nullable(),
  })
  .loose();
