import type { DataSource } from 'typeorm';
import type { Config } from '../../platform/config';
import type { Logger } from '../../platform/logger';
import { loadSecretBox, type SecretBox } from '../../platform/secret-box';
import type { AccountActivity } from '../account-activity';
import type { Accounts } from '../accounts';
import { SsoProviderService } from './providers';
import { SsoProvisioning } from './provisioning';
import { SsoSignIn } from './sign-in';

export { SECRET_MASK, type SsoProviderInput } from './providers';
export { redirectUri, SSO_PATH_PREFIX } from './sign-in';

/** Single sign-on: the providers admins configure and the sign-in flow through them (services/sso/). */
export function createSso(deps: { ds: DataSource; config: Config; log: Logger; activity: AccountActivity }, accounts: () => Accounts) {
  let box: SecretBox | undefined;
  const ssoProviders = new SsoProviderService(deps.ds, () => (box ??= loadSecretBox(deps.config.secrets, deps.log)), deps.log);
  const ssoSignIn = new SsoSignIn(deps.ds, deps.config.appBaseUrl, ssoProviders, new SsoProvisioning(deps.activity, deps.log), accounts, deps.activity, deps.log);
  return { ssoProviders, ssoSignIn };
}
