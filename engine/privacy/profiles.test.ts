import { piiTypes, profileById, profiles } from './index';

describe('profiles', () => {
  const known = new Set(piiTypes().map((t) => t.id));

  it('are hipaa, gdpr, pci_dss, ccpa and custom', () => {
    expect(profiles().map((p) => p.id)).toEqual(['hipaa', 'gdpr', 'pci_dss', 'ccpa', 'custom']);
  });

  it('hipaa lists the 18 Safe Harbor identifiers with their clauses, redact by default', () => {
    const h = profileById('hipaa')!;
    expect(h.default_action).toBe('redact');
    expect(h.piiTypes).toHaveLength(18);
    expect(h.identifiers.map((i) => i.clause.slice(-3))).toEqual('ABCDEFGHIJKLMNOPQR'.split('').map((c) => `(${c})`));
    for (const t of ['name', 'address', 'date_of_birth', 'phone', 'fax_number', 'email', 'ssn', 'medical_record_number', 'health_plan_id', 'ip_address', 'url', 'vin']) expect(h.piiTypes).toContain(t);
    expect(h.coveredTypes).toEqual(expect.arrayContaining(['us_zip_code', 'coordinates', 'age', 'license_plate', 'ipv6_address']));
  });

  it('gdpr pseudonymizes personal data and the Article 9 categories', () => {
    const g = profileById('gdpr')!;
    expect(g.default_action).toBe('pseudonymize');
    expect(g.coveredTypes).toEqual(expect.arrayContaining(['name', 'email', 'iban', 'ip_address', 'de_tax_id', 'fr_insee', 'nrp', 'icd10_code']));
    expect(g.identifiers.some((i) => i.clause.startsWith('Art. 9'))).toBe(true);
  });

  it('pci_dss masks the PAN and covers cardholder and sensitive authentication data', () => {
    const p = profileById('pci_dss')!;
    expect(p.default_action).toBe('mask');
    expect(p.piiTypes).toEqual(['credit_card', 'name', 'card_expiry', 'cvv', 'password']);
  });

  it('ccpa hashes the identifiers of 1798.140', () => {
    const c = profileById('ccpa')!;
    expect(c.default_action).toBe('hash');
    expect(c.coveredTypes).toEqual(expect.arrayContaining(['name', 'address', 'email', 'ip_address', 'ssn', 'us_drivers_license', 'us_passport', 'coordinates']));
  });

  it('custom has no types of its own', () => {
    expect(profileById('custom')!.piiTypes).toEqual([]);
  });

  it('name only types the engine detects', () => {
    for (const p of profiles()) for (const t of p.coveredTypes) expect(known.has(t)).toBe(true);
  });
});
