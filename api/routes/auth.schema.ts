import { z } from 'zod';
import { emailAddress, nonBlank, uuidParam } from '../validation';

/** The request schemas of the account routes (api/routes/auth.ts). */

const email = emailAddress;
const password = z.string().max(4096);
/** A password being set: the service refuses fewer than 8 or more than 1024 characters with the spec's texts. */
const newPassword = password.meta({ minLength: 8, maxLength: 1024 });

export const registerBody = z.object({
  email,
  name: nonBlank(200),
  password: newPassword,
  /** The token of a project invitation's link: needed when the instance's registration is invite-only. */
  invitation_token: z.string().min(10).max(200).optional(),
});
export const loginBody = z.object({ email: z.string().max(320), password, remember: z.boolean().default(false) });
export const verifyEmailQuery = z.object({ token: z.string().min(10).max(200) });
/** The body of `resend-verification` and `send-verification`. */
export const sendVerificationBody = z.object({ email: z.string().max(320) });
export const forgotPasswordBody = z.object({ email: z.string().max(320) });
export const resetPasswordBody = z.object({ token: z.string().min(10).max(200), password: newPassword });
export const changePasswordBody = z.object({ current_password: password, new_password: newPassword });
export const updateProfileBody = z.object({ name: nonBlank(200) });
export const sessionParams = z.object({ session_id: uuidParam });
export const deleteAccountBody = z.object({ password });
