import { z } from 'zod';
import { EXPIRED_INVITATION_LINK, INVALID_INVITATION_LINK, INVITATION_TTL_DAYS } from '../../services/invitations';
import { callerId, type RouteDeps } from '../context';
import { pageOf } from '../presenters/page.schema';
import { presentInvitation } from '../presenters/project';
import { createdInvitationSchema, invitationSchema, receivedInvitationSchema } from '../presenters/project.schema';
import { route, RouteDef } from '../route';
import { pageQuery } from '../validation';
import { acceptByTokenBody, invitationParams, inviteBody, projectInvitationParams, projectParams } from './invitations.schema';

/** The answer to an accepted invitation: the project joined and the role held there. */
const joinedSchema = z.object({ ok: z.boolean(), project_id: z.string(), role: z.string() });

/**
 * Invitations of people who may have no account yet: made and managed by project owners, mailed as a link whose
 * token proves the invitation, accepted by a logged-in user (by the token, or by id for the invited address).
 */
export function invitationRoutes({ services }: RouteDeps): RouteDef[] {
  const { invitations } = services;
  const tag = 'projects';
  /** The answer to an accepted invitation; the new member's access is no longer cached as absent. */
  const joined = (j: { projectId: string; role: string }) => {
    services.serving.forgetAccess();
    return { ok: true, project_id: j.projectId, role: j.role };
  };
  return [
    route({
      method: 'post',
      path: '/api/auth/invite',
      tag: 'auth',
      auth: 'user',
      scope: 'write:projects',
      rateLimit: 'members',
      summary:
        `Invite an email address into a project (owner only, never a role above your own): a link valid ${INVITATION_TTL_DAYS} days is mailed to it, carrying a secret stored hashed only; ` +
        'inviting the address again renews the invitation and replaces the link. The answer and its timing are the same whether or not an account has the address (the mail goes out after it). ' +
        'After registering, the invitee accepts while logged in with `POST /api/auth/invite/accept`. Rate limit: the `members` bucket (RATE_LIMIT_MEMBERS, 30 a minute per user by default)',
      body: inviteBody,
      responses: {
        201: {
          description: '{id, invitation_id, invitation: {id, email, role, project_id, created_at, expires_at}}',
          schema: z.object({ id: z.string(), invitation_id: z.string(), invitation: createdInvitationSchema }),
        },
        403: { description: "Not the owner, or a role above the caller's own" },
        404: { description: 'Project not found' },
      },
      handler: async (ctx, { body }) => {
        const invitation = await invitations.invite(callerId(ctx), { projectId: body.project_id, email: body.email, role: body.role });
        ctx.status = 201;
        return { id: invitation.id, invitation_id: invitation.id, invitation: presentInvitation(invitation) };
      },
    }),
    route({
      method: 'post',
      path: '/api/auth/invite/accept',
      tag: 'auth',
      auth: 'user',
      scope: 'write:projects',
      summary:
        "Accept an invitation by its mailed link's token: the logged-in caller joins the project with the invited role (a member keeps their role), whatever the account's address; the link works once",
      body: acceptByTokenBody,
      responses: {
        200: { description: '{ok, project_id, role}', schema: joinedSchema },
        400: { description: `\`${INVALID_INVITATION_LINK}\`, or \`${EXPIRED_INVITATION_LINK}\`` },
      },
      handler: async (ctx, { body }) => joined(await invitations.acceptByToken(ctx.state.principal!.user, body.token)),
    }),
    route({
      method: 'get',
      path: '/api/projects/:project_id/invitations',
      tag,
      auth: 'user',
      scope: 'read:projects',
      summary: 'Pending invitations of the project (addresses and roles; owner only)',
      params: projectParams,
      query: pageQuery(100),
      responses: { 200: { description: 'List envelope of {id, email, role, created_at, expires_at}', schema: pageOf(invitationSchema) }, 403: { description: 'Not the owner' } },
      handler: async (ctx, { params, query }) => invitations.forProject(callerId(ctx), params.project_id, query),
    }),
    route({
      method: 'delete',
      path: '/api/projects/:project_id/invitations/:invitation_id',
      tag,
      auth: 'user',
      scope: 'write:projects',
      summary: 'Withdraw a pending invitation (owner only); its link stops working',
      params: projectInvitationParams,
      responses: { 200: { description: '{ok}' }, 404: { description: 'Invitation not found' } },
      handler: async (ctx, { params }) => {
        await invitations.withdraw(callerId(ctx), params.project_id, params.invitation_id);
        return { ok: true };
      },
    }),
    route({
      method: 'get',
      path: '/api/invitations',
      tag,
      auth: 'user',
      scope: 'read:projects',
      summary: "Invitations addressed to the caller's email that are still pending",
      responses: { 200: { description: '{items: [{id, project_id, project_name, role, invited_by_name, created_at, expires_at}]}', schema: z.object({ items: z.array(receivedInvitationSchema) }) } },
      handler: async (ctx) => ({ items: await invitations.received(ctx.state.principal!.user) }),
    }),
    route({
      method: 'post',
      path: '/api/invitations/:invitation_id/accept',
      tag,
      auth: 'user',
      scope: 'write:projects',
      summary: "Accept an invitation addressed to the caller's email: join the project with the invited role",
      params: invitationParams,
      responses: { 200: { description: '{ok, project_id, role}', schema: joinedSchema }, 404: { description: 'Invitation not found (or expired, or addressed to someone else)' } },
      handler: async (ctx, { params }) => joined(await invitations.accept(ctx.state.principal!.user, params.invitation_id)),
    }),
    route({
      method: 'post',
      path: '/api/invitations/:invitation_id/decline',
      tag,
      auth: 'user',
      scope: 'write:projects',
      summary: 'Decline an invitation',
      params: invitationParams,
      responses: { 200: { description: '{ok}' }, 404: { description: 'Invitation not found' } },
      handler: async (ctx, { params }) => {
        await invitations.decline(ctx.state.principal!.user, params.invitation_id);
        return { ok: true };
      },
    }),
  ];
}
