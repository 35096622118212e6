import { confidenceBucket, detectColumns, detectText, transformText } from './index';

describe('detectText', () => {
  it('resolves overlaps: the best-supported span wins', () => {
    // A date with birth context is a date of birth, not a plain date; the email wins over the domain inside it.
    const found = detectText('DOB 1985-03-14, email ann.lee@acme-health.com');
    expect(found.map((d) => [d.type, d.text])).toEqual([
      ['date_of_birth', '1985-03-14'],
      ['email', 'ann.lee@acme-health.com'],
    ]);
    for (let i = 1; i < found.length; i++) expect(found[i].start).toBeGreaterThanOrEqual(found[i - 1].end);
  });

  it('resolves the very same span read as two types by the words around it, whatever the confidences', () => {
    // The digits pass the Finnish HETU check (0.92 alone), fit a Danish CPR number (0.9 with its context word) and a
    // phone number (no context): all three read the same characters.
    const all = detectText('CPR: 231281-8937', { keepOverlaps: true });
    expect(all.every((d) => d.start === 5 && d.end === 16)).toBe(true);
    expect(all.map((d) => d.type).sort()).toEqual(['dk_cpr', 'fi_hetu', 'phone']);
    expect(all.find((d) => d.type === 'fi_hetu')!.confidence).toBeGreaterThan(all.find((d) => d.type === 'dk_cpr')!.confidence);
    expect(detectText('CPR: 231281-8937').map((d) => d.type)).toEqual(['dk_cpr']);
    // Named by neither: the stronger evidence (the check character) wins; named by both: the higher confidence.
    expect(detectText('Copied 231281-8937 into the ticket.').map((d) => d.type)).toEqual(['fi_hetu']);
    expect(detectText('HETU (not the CPR) 231281-8937').map((d) => d.type)).toEqual(['fi_hetu']);
  });

  it('reports offsets, confidence and evidence', () => {
    const text = 'Card 4111 1111 1111 1111.';
    const [d] = detectText(text);
    expect(text.slice(d.start, d.end)).toBe('4111 1111 1111 1111');
    expect(d.evidence).toEqual(expect.arrayContaining(['checksum', 'brand:visa', 'context']));
    expect(confidenceBucket(d.confidence)).toBe('high');
  });

  it('uses context to raise weak patterns and lower look-alikes', () => {
    expect(detectText('Routing 021000021').map((d) => d.type)).toEqual(['aba_routing']);
    expect(detectText('Ticket 021000021')).toEqual([]);
    const low = detectText('order number 4111111111111111', { minConfidence: 0 }).find((d) => d.type === 'credit_card')!;
    expect(low.evidence).toContain('negative_context');
    expect(confidenceBucket(low.confidence)).toBe('low');
  });

  it('limits itself to the asked types', () => {
    expect(detectText('john@acme.com 536-22-8419 SSN', { types: ['ssn'] }).map((d) => d.type)).toEqual(['ssn']);
    expect(() => detectText('x', { types: ['nope'] })).toThrow(/Unknown PII type/);
  });

  it('buckets confidence as the spec says', () => {
    expect([0.95, 0.9, 0.8, 0.7, 0.69].map(confidenceBucket)).toEqual(['high', 'high', 'medium', 'medium', 'low']);
  });
});

describe('detectColumns', () => {
  const table = [
    { name: 'patient_name', values: ['Margaret Thompson', 'James Wilson', 'Priya Patel', null, 'Carlos Garcia'] },
    { name: 'dob', values: ['1985-03-14', '1990-12-01', '2001-07-04', '1979-11-30', ''] },
    { name: 'visit_date', values: ['2024-03-14', '2024-02-01', '2024-01-04', '2024-05-30', '2024-05-31'] },
    { name: 'card', values: ['4111111111111111', '5555555555554444', '378282246310005', '6011111111111117', null] },
    { name: 'order_no', values: ['4111111111111112', '1234567812345678', '9999888877776666', '1000000000000001', '2000000000000002'] },
    { name: 'mrn', values: ['00451236', '00451237', '00983321', '01234567', '07654321'] },
    { name: 'amount', values: ['12.50', '8.00', '101.25', '3.10', '77.00'] },
    { name: 'notes', values: ['Called Margaret Thompson at (617) 555-0143 about results', 'Sent summary to james.w@example.com', 'No issues reported today', 'Follow-up booked', 'Patient stable'] },
  ];

  it('types each PII column from its cells and its name', () => {
    const found = detectColumns(table);
    const byColumn = Object.fromEntries(found.map((f) => [f.column, f.piiType]));
    expect(byColumn).toEqual({ patient_name: 'name', dob: 'date_of_birth', visit_date: 'date', card: 'credit_card', mrn: 'medical_record_number' });
    const card = found.find((f) => f.column === 'card')!;
    expect(card).toMatchObject({ scope: 'column', instances: 4, scanned: 4, share: 1 });
    expect(card.samples[0]).toBe('************1111');
    expect(found.find((f) => f.column === 'mrn')!.evidence).toContain('column_name');
  });

  it('finds PII inside free-text cells only with deepScan', () => {
    expect(detectColumns(table).some((f) => f.column === 'notes')).toBe(false);
    const notes = detectColumns(table, { deepScan: true }).filter((f) => f.column === 'notes');
    expect(notes.map((f) => f.piiType).sort()).toEqual(['email', 'name', 'phone']);
    for (const f of notes) expect(f).toMatchObject({ scope: 'cells', instances: 1, scanned: 5 });
  });

  it('scales confidence with the share of matching cells and samples evenly', () => {
    const half = detectColumns([{ name: 'contact', values: ['a@b.com', 'c@d.org', 'x', 'y', 'e@f.net', 'z', 'g@h.io'] }])[0];
    expect(half.piiType).toBe('email');
    expect(half.share).toBeCloseTo(4 / 7);
    expect(half.confidence).toBeLessThan(0.9);
    const sampled = detectColumns([{ name: 'email', values: Array.from({ length: 1000 }, (_v, i) => `user${i}@example.com`) }], { sampleSize: 50 })[0];
    expect(sampled.scanned).toBe(50);
  });
});

describe('transformText', () => {
  it('applies each type its rule and leaves other text alone', () => {
    const text = 'Call Margaret Thompson at (617) 555-0143, SSN 536-22-8419.';
    const out = transformText(text, detectText(text), { name: { action: 'redact', config: { replacement: '[{type}]' } }, ssn: { action: 'mask' }, phone: { action: 'suppress' } });
    expect(out.text).toBe('Call [NAME] at , SSN ***-**-8419.');
    expect(out.applied).toBe(3);
  });

  it('leaves nothing detectable of the transformed types', () => {
    const text = 'Margaret Thompson, DOB 1985-03-14, card 4111 1111 1111 1111, mail m.t@example.com';
    const rules = {
      name: { action: 'redact' as const },
      date_of_birth: { action: 'generalize' as const, config: { dateTo: 'year' as const } },
      credit_card: { action: 'hash' as const },
      email: { action: 'redact' as const },
    };
    const out = transformText(text, detectText(text), rules, { hmacSecret: 's' });
    expect(detectText(out.text, { types: ['name', 'date_of_birth', 'credit_card', 'email'] })).toEqual([]);
  });
});
