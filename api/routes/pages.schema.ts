import { z } from 'zod';

/** The request schemas of the browser pages (api/routes/pages.ts): the reset link's form. */

export const resetPasswordPageQuery = z.object({ token: z.string().max(200).default('') });
export const resetPasswordForm = z.object({ token: z.string().max(200).default(''), password: z.string().max(4096).default('') });
