/** The registry of recognizers: one per PII type id, in tie-break order (the earlier wins an exact tie). */
import type { PiiTypeInfo } from '../types';
import { ADDRESS_RECOGNIZERS } from './addresses';
import { CONTACT_RECOGNIZERS } from './contact';
import { CRYPTO_RECOGNIZERS } from './crypto-wallets';
import { DATE_RECOGNIZERS } from './dates';
import type { Recognizer } from './define';
import { ENTITY_RECOGNIZERS } from './named-entities';
import { FINANCIAL_RECOGNIZERS } from './financial';
import { GEOGRAPHY_RECOGNIZERS } from './geography';
import { HEALTH_RECOGNIZERS } from './health';
import { NATIONAL_ID_RECOGNIZERS } from './national-ids';
import { NETWORK_RECOGNIZERS } from './network';
import { PERSONAL_RECOGNIZERS } from './personal';
import { TITLE_RECOGNIZERS } from './titles';
import { withStatisticalNer } from './statistical-ner';
import { VEHICLE_RECOGNIZERS } from './vehicles';

export type { Recognizer } from './define';

// The statistical NER model joins the rule recognizers of the types it finds (name, organization, location, nrp).
export const RECOGNIZERS: readonly Recognizer[] = withStatisticalNer([
  ...CONTACT_RECOGNIZERS,
  ...ADDRESS_RECOGNIZERS,
  ...FINANCIAL_RECOGNIZERS,
  ...NATIONAL_ID_RECOGNIZERS,
  ...HEALTH_RECOGNIZERS,
  ...CRYPTO_RECOGNIZERS,
  ...NETWORK_RECOGNIZERS,
  ...VEHICLE_RECOGNIZERS,
  ...DATE_RECOGNIZERS,
  ...GEOGRAPHY_RECOGNIZERS,
  ...ENTITY_RECOGNIZERS,
  ...PERSONAL_RECOGNIZERS,
  ...TITLE_RECOGNIZERS,
]);

const BY_ID = new Map(RECOGNIZERS.map((r) => [r.id, r]));
if (BY_ID.size !== RECOGNIZERS.length) throw new Error('duplicate PII type id among the recognizers');

/** The recognizer of a PII type id, or undefined. */
export function recognizer(id: string): Recognizer | undefined {
  return BY_ID.get(id);
}

/** The recognizers for a list of type ids (all when omitted); unknown ids are an error, not silently skipped. */
export function recognizersFor(types?: readonly string[]): readonly Recognizer[] {
  if (!types) return RECOGNIZERS;
  return types.map((t) => {
    const r = BY_ID.get(t);
    if (!r) throw new RangeError(`Unknown PII type: ${t}`);
    return r;
  });
}

/** Every PII type the engine detects (`GET /api/privacy/pii-types`). */
export function piiTypes(): PiiTypeInfo[] {
  return RECOGNIZERS.map(({ id, name, category, country, evidence }) => (country ? { id, name, category, country, evidence } : { id, name, category, evidence }));
}
