import { z } from 'zod';
import { requireSuperuser } from '../admin-guard';
import { callerId, requestMeta, type RouteDeps } from '../context';
import { presentAdminUser, presentAdminUserDetail, presentAdminUserRow } from '../presenters/admin';
import { adminUserDetailSchema, adminUserSchema } from '../presenters/admin.schema';
import { pageOf } from '../presenters/page.schema';
import { route, RouteDef } from '../route';
import { adminUserParams, adminUsersQuery, updateAdminUserBody } from './admin-users.schema';

const tag = 'admin';
const notFound = { 404: { description: 'User not found' } };

/** What deleting a user does with their data: the answer and the OpenAPI text say the same. */
const DELETION_FATE =
  "The account goes with its sessions, API keys, memberships, pending tokens and account events. Projects the user alone owns are deleted with all their data and stored files (listed in `projects_deleted`); projects they own with other owners pass to the longest-standing other owner (`projects_transferred`). The same as the user's own `POST /api/auth/delete-account`.";

/** The admin area's users: list and search, one user, the superuser flag, suspension, deletion. Superusers only. */
export function adminUserRoutes({ services, keyCache }: RouteDeps): RouteDef[] {
  const { users } = services.admin;
  return [
    route({
      method: 'get',
      path: '/api/admin/users',
      tag,
      auth: 'user',
      scope: 'admin',
      summary: 'Every user, searched by email or name (`q`), filtered by suspension and the superuser flag, sorted and paged',
      query: adminUsersQuery,
      responses: { 200: { description: 'Page of users', schema: pageOf(adminUserSchema) } },
      handler: async (ctx, { query }) => {
        requireSuperuser(ctx);
        const page = await users.list(query);
        return { ...page, items: page.items.map(presentAdminUserRow) };
      },
    }),
    route({
      method: 'get',
      path: '/api/admin/users/:user_id',
      tag,
      auth: 'user',
      scope: 'admin',
      summary: 'One user with the projects they own, their memberships, API keys and live sessions',
      params: adminUserParams,
      responses: { 200: { description: '{user}', schema: z.object({ user: adminUserDetailSchema }) }, ...notFound },
      handler: async (ctx, { params }) => {
        requireSuperuser(ctx);
        return { user: presentAdminUserDetail(await users.detail(params.user_id)) };
      },
    }),
    route({
      method: 'put',
      path: '/api/admin/users/:user_id',
      tag,
      auth: 'user',
      scope: 'admin',
      summary: 'Grant or remove the superuser flag (a `superuser_granted` or `superuser_revoked` security event); the last superuser keeps it (409)',
      params: adminUserParams,
      body: updateAdminUserBody,
      responses: { 200: { description: '{user}', schema: z.object({ user: adminUserSchema }) }, ...notFound, 409: { description: 'The last superuser cannot lose the flag' } },
      handler: async (ctx, { params, body }) => {
        requireSuperuser(ctx);
        const user = await services.superusers.set(callerId(ctx), params.user_id, body.is_superuser, requestMeta(ctx));
        await keyCache.forgetUser(user.id);
        return { user: presentAdminUser(user) };
      },
    }),
    route({
      method: 'post',
      path: '/api/admin/users/:user_id/suspend',
      tag,
      auth: 'user',
      scope: 'admin',
      summary: "Suspend a user: from the next request on their sessions and API keys answer 401 and login refuses them (nothing is revoked; reactivation gives them back). Not one's own account (409)",
      params: adminUserParams,
      responses: { 200: { description: '{user}', schema: z.object({ user: adminUserSchema }) }, ...notFound, 409: { description: 'You cannot suspend your own account' } },
      handler: async (ctx, { params }) => {
        requireSuperuser(ctx);
        const user = await users.suspend(callerId(ctx), params.user_id, requestMeta(ctx));
        await keyCache.forgetUser(user.id);
        return { user: presentAdminUser(user) };
      },
    }),
    route({
      method: 'post',
      path: '/api/admin/users/:user_id/reactivate',
      tag,
      auth: 'user',
      scope: 'admin',
      summary: 'Lift a suspension: the sessions and keys still live work again',
      params: adminUserParams,
      responses: { 200: { description: '{user}', schema: z.object({ user: adminUserSchema }) }, ...notFound },
      handler: async (ctx, { params }) => {
        requireSuperuser(ctx);
        const user = await users.reactivate(callerId(ctx), params.user_id, requestMeta(ctx));
        await keyCache.forgetUser(user.id);
        return { user: presentAdminUser(user) };
      },
    }),
    route({
      method: 'delete',
      path: '/api/admin/users/:user_id',
      tag,
      auth: 'user',
      scope: 'admin',
      summary: `Delete a user. ${DELETION_FATE} Not one's own account (409: use delete-account), never the last superuser (409).`,
      params: adminUserParams,
      responses: {
        200: {
          description: '{ok, user_id, email, projects_deleted, projects_transferred, data}: what happened to their data',
          schema: z.object({ ok: z.boolean(), user_id: z.string(), email: z.string(), projects_deleted: z.array(z.string()), projects_transferred: z.array(z.string()), data: z.string() }).loose(),
        },
        ...notFound,
        409: { description: 'Your own account, or the last superuser' },
      },
      handler: async (ctx, { params }) => {
        requireSuperuser(ctx);
        const r = await users.remove(callerId(ctx), params.user_id);
        await keyCache.forgetUser(r.user.id);
        return { ok: true, user_id: r.user.id, email: r.user.email, projects_deleted: r.projectsDeleted, projects_transferred: r.projectsTransferred, data: DELETION_FATE };
      },
    }),
  ];
}
