import { z } from 'zod';
import { ADMIN_USER_SORT_FIELDS } from '../../services/admin/users';
import { intParam, queryBool, uuidParam } from '../validation';

/** The request schemas of the admin user routes (api/routes/admin-users.ts). */

export const adminUsersQuery = z.object({
  limit: intParam(1, 200).default(50),
  offset: intParam(0).default(0),
  /** Part of the email or the name. */
  q: z.string().max(200).optional(),
  suspended: queryBool.optional(),
  superuser: queryBool.optional(),
  sort_field: z.enum(ADMIN_USER_SORT_FIELDS).default('created_at'),
  sort_direction: z.enum(['asc', 'desc']).default('desc'),
});

export const adminUserParams = z.object({ user_id: uuidParam });

/** What an admin changes of a user: the superuser flag. */
export const updateAdminUserBody = z.object({ is_superuser: z.boolean() }).strict();
