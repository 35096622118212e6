import { z } from 'zod';
import { requireSuperuser } from '../admin-guard';
import { callerId, type RouteDeps } from '../context';
import { presentSettings } from '../presenters/admin';
import { settingsSchema } from '../presenters/admin.schema';
import { route, RouteDef } from '../route';
import { updateSettingsBody } from './admin-settings.schema';

const answer = z.object({ settings: settingsSchema, defaults: settingsSchema }).loose();

/** The instance settings: registration, default plan, allowed email domains, session lifetime. Superusers only. */
export function adminSettingsRoutes({ services }: RouteDeps): RouteDef[] {
  const { settings } = services;
  const tag = 'admin';
  return [
    route({
      method: 'get',
      path: '/api/admin/settings',
      tag,
      auth: 'user',
      scope: 'admin',
      summary: 'The instance settings in force (`settings`) and the configured defaults a cleared setting returns to (`defaults`)',
      responses: { 200: { description: '{settings, defaults}', schema: answer } },
      handler: async (ctx) => {
        requireSuperuser(ctx);
        return { settings: presentSettings(await settings.read()), defaults: presentSettings(settings.defaults()) };
      },
    }),
    route({
      method: 'put',
      path: '/api/admin/settings',
      tag,
      auth: 'user',
      scope: 'admin',
      summary:
        'Change settings (an omitted field is kept, null returns it to its default). `registration`: open, invite_only (registering needs a pending invitation to that address: `invitation_token`) or closed (registering is 403); `allowed_email_domains`: registration refuses other domains (403), empty: any; `default_plan`: a plan name (422 when unknown); `session_lifetime_hours`: of new sessions without `remember`. Applies at once in this process, within 5 s in others.',
      body: updateSettingsBody,
      responses: { 200: { description: '{settings, defaults}', schema: answer } },
      handler: async (ctx, { body }) => {
        requireSuperuser(ctx);
        const updated = await settings.update(callerId(ctx), body);
        return { settings: presentSettings(updated), defaults: presentSettings(settings.defaults()) };
      },
    }),
  ];
}
