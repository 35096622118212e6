import { gstinValid, luhn, vinValid } from './checksums';
import { ACTIONS, applyAction, decrypt, detectText, isEncryptedToken } from './index';
import { cellConfidence } from './detect-columns';
import { recognizer } from './recognizers';

const secrets = { hmacSecret: 'project-a-secret', encryptionKey: Buffer.alloc(32, 7), keyId: 'k2024' };
const other = { hmacSecret: 'project-b-secret' };

describe('actions', () => {
  it('are the seven of the spec', () => {
    expect(ACTIONS.map((a) => a.id).sort()).toEqual(['encrypt', 'generalize', 'hash', 'mask', 'pseudonymize', 'redact', 'suppress']);
  });

  it('mask keeps the last digits and the separators', () => {
    expect(applyAction('mask', '4111 1111 1111 1234', 'credit_card').value).toBe('**** **** **** 1234');
    expect(applyAction('mask', '536-22-8419', 'ssn', { char: '#', visible: 2 }).value).toBe('###-##-##19');
    expect(applyAction('mask', 'ABCDEF', 'x', { visible: 2, from: 'start', keepSeparators: false }).value).toBe('AB****');
    // Never all visible, even when asked for more digits than half the value.
    expect(applyAction('mask', '1234', 'x', { visible: 10 }).value).toBe('**34');
  });

  it('hash is a keyed HMAC-SHA256: stable within a project, different across projects', () => {
    const a = applyAction('hash', 'john@example.com', 'email', {}, secrets).value;
    expect(a).toMatch(/^[0-9a-f]{64}$/);
    expect(applyAction('hash', 'john@example.com', 'email', {}, secrets).value).toBe(a);
    expect(applyAction('hash', 'john@example.com', 'email', {}, other).value).not.toBe(a);
    expect(applyAction('hash', 'x', 'email', { length: 16, prefix: 'h:' }, secrets).value).toMatch(/^h:[0-9a-f]{16}$/);
    expect(() => applyAction('hash', 'x', 'email', {}, {})).toThrow(/secret/);
  });

  it('redact replaces the value, naming the type when asked', () => {
    expect(applyAction('redact', 'John Smith', 'name').value).toBe('[REDACTED]');
    expect(applyAction('redact', 'John Smith', 'name', { replacement: '<{type}>' }).value).toBe('<NAME>');
  });

  it('encrypt makes a versioned AES-256-GCM token that decrypt reverses and tampering breaks', () => {
    const token = applyAction('encrypt', '536-22-8419', 'ssn', {}, secrets).value as string;
    expect(token).toMatch(/^enc:v1:k2024:[\w-]{16}:[\w-]{22}:[\w-]+$/);
    expect(isEncryptedToken(token)).toBe(true);
    expect(decrypt(token, secrets)).toBe('536-22-8419');
    expect(decrypt(token, { k2024: secrets.encryptionKey })).toBe('536-22-8419');
    // A fresh IV each time: equal values give different tokens.
    expect(applyAction('encrypt', '536-22-8419', 'ssn', {}, secrets).value).not.toBe(token);
    const parts = token.split(':');
    const flipped = parts[5][0] === 'A' ? 'B' + parts[5].slice(1) : 'A' + parts[5].slice(1);
    expect(() => decrypt([...parts.slice(0, 5), flipped].join(':'), secrets)).toThrow();
    expect(() => decrypt(token, { k2024: Buffer.alloc(32, 8) })).toThrow();
    expect(() => decrypt(token, { other: secrets.encryptionKey })).toThrow(/Unknown encryption key/);
  });

  it('generalize dates, ages, postal codes, coordinates and IPs', () => {
    expect(applyAction('generalize', '1985-03-14', 'date_of_birth').value).toBe('1985-03');
    expect(applyAction('generalize', 'March 3, 1990', 'date', { dateTo: 'year' }).value).toBe('1990');
    expect(applyAction('generalize', '03/14/1985', 'date').value).toBe('1985-03');
    expect(applyAction('generalize', '47', 'age').value).toBe('40-49');
    expect(applyAction('generalize', '47', 'age', { ageBand: 5 }).value).toBe('45-49');
    expect(applyAction('generalize', '93', 'age').value).toBe('90+');
    expect(applyAction('generalize', '94105', 'us_zip_code').value).toBe('941**');
    expect(applyAction('generalize', 'SW1A 1AA', 'uk_postcode').value).toBe('SW1A');
    expect(applyAction('generalize', '40.712776, -74.005974', 'coordinates').value).toBe('40.75, -74.05');
    expect(applyAction('generalize', '192.168.10.20', 'ip_address').value).toBe('192.168.10.0/24');
    expect(applyAction('generalize', 'John Smith', 'name').value).toBe('[name]');
  });

  it('suppress empties the cell and flags a column-wide suppression for the caller', () => {
    expect(applyAction('suppress', 'x', 'name')).toEqual({ value: null });
    expect(applyAction('suppress', 'x', 'name', { scope: 'column' })).toEqual({ value: null, dropColumn: true });
  });
});

describe('pseudonymize', () => {
  const fake = (type: string, value: string, s = secrets): string => applyAction('pseudonymize', value, type, {}, s).value as string;

  it('gives the same input the same fake within a project and another fake in another project', () => {
    for (const [type, value] of [
      ['name', 'Margaret Thompson'],
      ['email', 'm.thompson@example.com'],
      ['ssn', '536-22-8419'],
      ['credit_card', '4111 1111 1111 1111'],
    ]) {
      expect(fake(type, value)).toBe(fake(type, value));
      expect(fake(type, value)).not.toBe(value);
      expect(fake(type, value, { ...secrets, hmacSecret: 'other' })).not.toBe(fake(type, value));
    }
    // The same person or identifier written differently is the same input.
    expect(fake('name', 'margaret  thompson')).toBe(fake('name', 'Margaret Thompson'));
    expect(fake('credit_card', '4111111111111111').replace(/\D/g, '')).toBe(fake('credit_card', '4111 1111 1111 1111').replace(/\D/g, ''));
  });

  it('makes fakes valid for their type: Luhn cards of the same brand, IBANs, Aadhaar, CPF, VIN', () => {
    const card = fake('credit_card', '4111 1111 1111 1111');
    expect(card).toMatch(/^4\d{3} \d{4} \d{4} \d{4}$/);
    expect(luhn(card.replace(/ /g, ''))).toBe(true);
    for (const [type, value] of [
      ['iban', 'DE89 3704 0044 0532 0130 00'],
      ['in_aadhaar', '2341 2341 2346'],
      ['br_cpf', '123.456.789-09'],
      ['vin', '1HGCM82633A004352'],
      ['uk_nhs', '943 476 5919'],
      ['ssn', '536-22-8419'],
      ['phone', '(617) 555-0143'],
      ['ip_address', '192.168.1.20'],
    ]) {
      const f = fake(type, value);
      expect(cellConfidence(recognizer(type)!, f, true)).toBeGreaterThan(0);
    }
    expect(fake('iban', 'DE89 3704 0044 0532 0130 00').startsWith('DE')).toBe(true);
  });

  it("keeps what the format fixes: a GSTIN's state and Z, a VIN's manufacturer (WMI) and its check digit where it has one", () => {
    for (let i = 0; i < 20; i++) {
      const s = { ...secrets, hmacSecret: `secret-${i}` };
      const gstin = fake('in_gstin', '27AAPFU0939F1ZV', s);
      expect(gstin).toMatch(/^27[A-Z]{5}\d{4}[A-Z][1-9A-Z]Z[0-9A-Z]$/);
      expect(gstinValid(gstin)).toBe(true);
      const vin = fake('vin', '1HGCM82633A004352', s);
      expect(vin.startsWith('1HG')).toBe(true);
      expect(vinValid(vin)).toBe(true);
      // A European VIN has no check digit to keep; its fake is still a VIN by structure (region, numeric tail).
      const eu = fake('vin', 'WVWZZZ1KZ6W612345', s);
      expect(eu).toMatch(/^WVW[A-HJ-NPR-Z0-9]{10}\d{4}$/);
      expect(detectText(`It says ${eu} in the attachment.`).map((d) => d.type)).toEqual(['vin']);
    }
  });

  it('makes realistic names, emails and dates that detection still recognizes as their type', () => {
    const name = fake('name', 'Margaret Thompson');
    expect(name).toMatch(/^[A-Z][a-z'-]+ [A-Z][a-z'-]+$/);
    expect(fake('email', 'm.thompson@example.com')).toMatch(/^[a-z'-]+\.[a-z]+\d{0,2}@example\.(com|org|net)$/);
    const dob = fake('date_of_birth', '1985-03-14');
    expect(dob).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(detectText(`DOB ${dob}`).map((d) => d.type)).toContain('date_of_birth');
    expect(Number(fake('age', '47'))).toBeGreaterThanOrEqual(40);
    expect(Number(fake('age', '47'))).toBeLessThan(50);
  });
});
