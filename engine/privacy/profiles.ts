/**
 * Compliance profiles (`GET /api/privacy/profiles`): the PII types each regulation names, its default action and the
 * clause each type comes from. `piiTypes` holds one primary type per identifier the regulation lists (HIPAA: the 18
 * Safe Harbor identifiers), `coveredTypes` every engine type that falls under one of them (a ZIP code is a
 * "geographic subdivision smaller than a state" as much as a street address is).
 */
import type { ActionId } from './actions';
import { RECOGNIZERS } from './recognizers';

export type ProfileId = 'hipaa' | 'gdpr' | 'pci_dss' | 'ccpa' | 'custom';

export interface ProfileIdentifier {
  /** The regulation's clause. */
  clause: string;
  label: string;
  /** The engine types covering it; the first is the primary one listed in `piiTypes`. */
  types: string[];
}

export interface Profile {
  id: ProfileId;
  name: string;
  description: string;
  source: string;
  default_action: ActionId;
  identifiers: ProfileIdentifier[];
  /** One primary type per identifier, in the regulation's order. */
  piiTypes: string[];
  /** All engine types the profile covers. */
  coveredTypes: string[];
}

const HIPAA: ProfileIdentifier[] = [
  { clause: '164.514(b)(2)(i)(A)', label: 'Names', types: ['name'] },
  { clause: '164.514(b)(2)(i)(B)', label: 'Geographic subdivisions smaller than a state', types: ['address', 'us_zip_code', 'location', 'coordinates'] },
  { clause: '164.514(b)(2)(i)(C)', label: 'Dates (except year) related to an individual; ages over 89', types: ['date_of_birth', 'date', 'age'] },
  { clause: '164.514(b)(2)(i)(D)', label: 'Telephone numbers', types: ['phone'] },
  { clause: '164.514(b)(2)(i)(E)', label: 'Fax numbers', types: ['fax_number'] },
  { clause: '164.514(b)(2)(i)(F)', label: 'Email addresses', types: ['email'] },
  { clause: '164.514(b)(2)(i)(G)', label: 'Social security numbers', types: ['ssn'] },
  { clause: '164.514(b)(2)(i)(H)', label: 'Medical record numbers', types: ['medical_record_number'] },
  { clause: '164.514(b)(2)(i)(I)', label: 'Health plan beneficiary numbers', types: ['health_plan_id', 'us_mbi'] },
  { clause: '164.514(b)(2)(i)(J)', label: 'Account numbers', types: ['bank_account', 'credit_card', 'iban'] },
  { clause: '164.514(b)(2)(i)(K)', label: 'Certificate/license numbers', types: ['us_drivers_license', 'dea_number', 'npi'] },
  { clause: '164.514(b)(2)(i)(L)', label: 'Vehicle identifiers and serial numbers, including license plates', types: ['vin', 'license_plate'] },
  { clause: '164.514(b)(2)(i)(M)', label: 'Device identifiers and serial numbers', types: ['imei', 'mac_address'] },
  { clause: '164.514(b)(2)(i)(N)', label: 'Web URLs', types: ['url', 'domain_name'] },
  { clause: '164.514(b)(2)(i)(O)', label: 'IP addresses', types: ['ip_address', 'ipv6_address'] },
  { clause: '164.514(b)(2)(i)(P)', label: 'Biometric identifiers, including finger and voice prints', types: ['biometric_identifier'] },
  { clause: '164.514(b)(2)(i)(Q)', label: 'Full-face photographs and comparable images', types: ['photo'] },
  { clause: '164.514(b)(2)(i)(R)', label: 'Any other unique identifying number, characteristic, or code', types: ['unique_identifier', 'us_passport', 'us_itin'] },
];

const NATIONAL_IDS = RECOGNIZERS.filter((r) => r.category === 'national_id').map((r) => r.id);

const GDPR: ProfileIdentifier[] = [
  { clause: 'Art. 4(1) identifiers: name', label: 'Names', types: ['name'] },
  { clause: 'Art. 4(1) identification number', label: 'National identification and tax numbers', types: NATIONAL_IDS },
  {
    clause: 'Art. 4(1) location data',
    label: 'Addresses, postal codes, places and coordinates',
    types: ['address', 'location', 'coordinates', 'uk_postcode', 'de_postal_code', 'nl_postcode', 'us_zip_code'],
  },
  {
    clause: 'Art. 4(1) online identifier',
    label: 'Email, IP, device and online identifiers',
    types: ['email', 'ip_address', 'ipv6_address', 'mac_address', 'imei', 'username', 'url', 'user_agent', 'unique_identifier'],
  },
  { clause: 'Art. 4(1) identifiers: contact', label: 'Phone and fax numbers', types: ['phone', 'fax_number'] },
  { clause: 'Art. 4(1) economic identity', label: 'Bank and payment identifiers', types: ['iban', 'credit_card', 'bank_account', 'swift_bic'] },
  { clause: 'Art. 4(1) physical/physiological identity', label: 'Date of birth and age', types: ['date_of_birth', 'age'] },
  { clause: 'Art. 9(1) health data', label: 'Health identifiers and diagnoses', types: ['medical_record_number', 'icd10_code', 'health_plan_id', 'uk_nhs', 'au_medicare'] },
  { clause: 'Art. 9(1) biometric data', label: 'Biometric identifiers and photographs', types: ['biometric_identifier', 'photo'] },
  { clause: 'Art. 9(1) racial or ethnic origin, political opinions, religious beliefs', label: 'Nationality, religious or political group', types: ['nrp'] },
  { clause: 'Art. 4(1) cultural/social identity', label: 'Vehicle and licence identifiers', types: ['vin', 'license_plate'] },
];

const PCI: ProfileIdentifier[] = [
  { clause: 'PCI DSS v4.0 Req. 3.3 / 3.4 primary account number', label: 'Primary account number (PAN)', types: ['credit_card'] },
  { clause: 'PCI DSS v4.0 Req. 3.2 cardholder data: cardholder name', label: 'Cardholder name', types: ['name'] },
  { clause: 'PCI DSS v4.0 Req. 3.2 cardholder data: expiration date', label: 'Expiration date', types: ['card_expiry'] },
  { clause: 'PCI DSS v4.0 Req. 3.3.1.2 sensitive authentication data: card verification code', label: 'Card verification code', types: ['cvv'] },
  { clause: 'PCI DSS v4.0 Req. 3.3.1.3 sensitive authentication data: PIN', label: 'PIN and passwords', types: ['password'] },
];

const CCPA: ProfileIdentifier[] = [
  { clause: 'Cal. Civ. Code 1798.140(v)(1)(A) identifiers: real name, alias', label: 'Names and aliases', types: ['name', 'username'] },
  { clause: '1798.140(v)(1)(A) postal address', label: 'Postal address', types: ['address', 'us_zip_code'] },
  {
    clause: '1798.140(v)(1)(A) unique personal identifier, online identifier, IP address',
    label: 'Online and device identifiers',
    types: ['ip_address', 'ipv6_address', 'mac_address', 'imei', 'unique_identifier', 'user_agent'],
  },
  { clause: '1798.140(v)(1)(A) email address', label: 'Email address', types: ['email'] },
  { clause: '1798.140(v)(1)(A) account name', label: 'Account identifiers', types: ['bank_account', 'credit_card', 'aba_routing'] },
  { clause: '1798.140(v)(1)(A) social security number', label: 'Social security number', types: ['ssn', 'us_itin'] },
  { clause: "1798.140(v)(1)(A) driver's license number, passport number", label: "Driver's license and passport numbers", types: ['us_drivers_license', 'us_passport'] },
  { clause: '1798.80(e) telephone number', label: 'Telephone number', types: ['phone'] },
  { clause: '1798.140(v)(1)(E) biometric information', label: 'Biometric information', types: ['biometric_identifier', 'photo'] },
  { clause: '1798.140(v)(1)(G) geolocation data', label: 'Geolocation', types: ['coordinates'] },
  { clause: '1798.140(ae) sensitive personal information: health, account log-in', label: 'Health data and log-in credentials', types: ['medical_record_number', 'health_plan_id', 'password'] },
  { clause: '1798.140(ae)(1)(B) racial or ethnic origin, religious beliefs', label: 'Racial, ethnic or religious group', types: ['nrp'] },
  { clause: '1798.140(v)(1)(A) vehicle identifiers', label: 'Vehicle identifiers', types: ['vin', 'license_plate'] },
];

function profile(id: ProfileId, name: string, description: string, source: string, action: ActionId, identifiers: ProfileIdentifier[]): Profile {
  const covered = [...new Set(identifiers.flatMap((i) => i.types))];
  return { id, name, description, source, default_action: action, identifiers, piiTypes: [...new Set(identifiers.map((i) => i.types[0]))], coveredTypes: covered };
}

const PROFILES: readonly Profile[] = [
  profile('hipaa', 'HIPAA Safe Harbor', 'The 18 identifiers of the HIPAA Privacy Rule Safe Harbor de-identification method.', '45 CFR 164.514(b)(2)', 'redact', HIPAA),
  profile('gdpr', 'GDPR', 'Personal data (Art. 4(1)) and special categories (Art. 9); pseudonymisation per Art. 4(5) and 32(1)(a).', 'Regulation (EU) 2016/679', 'pseudonymize', GDPR),
  profile('pci_dss', 'PCI DSS', 'Cardholder data and sensitive authentication data; PAN shown at most with its last four digits (Req. 3.4.1).', 'PCI DSS v4.0 Requirement 3', 'mask', PCI),
  profile('ccpa', 'CCPA / CPRA', 'Personal information and sensitive personal information of California residents; hashing de-identifies (1798.140(m)).', 'Cal. Civ. Code 1798.140', 'hash', CCPA),
  profile('custom', 'Custom', 'No regulation: the policy lists its own PII types in its rules.', 'none', 'mask', []),
];

for (const p of PROFILES) for (const t of p.coveredTypes) if (!RECOGNIZERS.some((r) => r.id === t)) throw new Error(`profile ${p.id} names unknown PII type ${t}`);

/** All profiles. */
export function profiles(): readonly Profile[] {
  return PROFILES;
}

/** One profile by id, or undefined. */
export function profileById(id: string): Profile | undefined {
  return PROFILES.find((p) => p.id === id);
}
