import type { DataSource } from 'typeorm';
import type { Config } from '../../platform/config';
import type { Logger } from '../../platform/logger';
import { BillingService } from './billing';
import { StripeProvider } from './stripe-provider';

export { BILLING_OFF, BillingService } from './billing';
export { WebhookSignatureError } from './provider';

/** Billing with the configured provider (none: every call but metering answers 404 `Billing is not enabled`). */
export function createBilling(ds: DataSource, config: Config, log: Logger): BillingService {
  const provider = config.billing?.provider === 'stripe' ? new StripeProvider(config.billing) : null;
  return new BillingService(ds, config.billing, provider, config.appBaseUrl, log);
}
