import type { EntityManager } from 'typeorm';
import { ProjectInvitation } from '../../entities';
import { sha256 } from '../../platform/secrets';
import { ForbiddenError } from '../errors';
import { EXPIRED_INVITATION_LINK, INVALID_INVITATION_LINK } from '../invitations';
import { domainAllowed, readSettings } from './settings';

export const REGISTRATION_CLOSED = 'Registration is closed on this instance; ask an administrator for an account';
export const INVITATION_REQUIRED = 'Registration on this instance is by invitation only: register with the invitation link you were sent (invitation_token)';
export const INVITATION_OTHER_EMAIL = 'This invitation was sent to another email address; register with the invited address';
export const DOMAIN_NOT_ALLOWED = 'Registration is not open to this email domain';

/**
 * Whether the instance settings let this email register (403 with the reason otherwise): not when registration is
 * closed; with an invitation's token when it is invite-only (a pending, unexpired invitation to this very address,
 * which the token proves reached its mailbox; accepting it afterwards spends it); and only from an allowed domain.
 */
export async function assertMayRegister(em: EntityManager, email: string, invitationToken?: string): Promise<void> {
  const settings = await readSettings(em);
  if (settings.registration === 'closed') throw new ForbiddenError(REGISTRATION_CLOSED);
  if (settings.registration === 'invite_only') {
    if (!invitationToken) throw new ForbiddenError(INVITATION_REQUIRED);
    const invitation = await em.getRepository(ProjectInvitation).findOneBy({ tokenHash: sha256(invitationToken) });
    if (!invitation) throw new ForbiddenError(INVALID_INVITATION_LINK);
    if (invitation.expiresAt.getTime() <= Date.now()) throw new ForbiddenError(EXPIRED_INVITATION_LINK);
    if (invitation.email !== email) throw new ForbiddenError(INVITATION_OTHER_EMAIL);
    // An invited address is let in whatever its domain: the project's owner chose to invite it.
    return;
  }
  if (!domainAllowed(settings, email)) throw new ForbiddenError(DOMAIN_NOT_ALLOWED);
}
