import { z } from 'zod';
import { REGISTRATION_MODES } from '../../services/admin/settings';

/** The request schema of `PUT /api/admin/settings` (api/routes/admin-settings.ts). */

/** A domain name: labels of letters, digits and dashes (a leading `@` is accepted and dropped). */
const domain = z
  .string()
  .max(253)
  .regex(/^@?(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z]{2,63}$/, 'Not a domain name');

/** Each field optional: an omitted one is kept, null returns it to its configured default. */
export const updateSettingsBody = z
  .object({
    registration: z.enum(REGISTRATION_MODES).nullable().optional(),
    default_plan: z.string().min(1).max(100).regex(/\S/, 'Plan name must not be blank').nullable().optional(),
    allowed_email_domains: z.array(domain).max(200).nullable().optional(),
    session_lifetime_hours: z
      .number()
      .int()
      .min(1)
      .max(24 * 365)
      .nullable()
      .optional(),
  })
  .strict();
