/**
 * The NER model as a recognizer: its labels mapped to the engine's types, the re-casing of lines in capitals or in
 * lower case, and the model's habits the recognizer corrects (field labels read as organizations, "Chinese food").
 */
import { detectText } from '../detect-text';
import { CORPUS, parseLabelled } from '../free-text.fixtures';
import { defaultNerModelDir, nerAvailable } from '../ner';
import { recase, recaseForModel, type RecaseStrategy } from './recase';
import { modelSpans } from './statistical-ner';

beforeAll(() => {
  if (!nerAvailable()) throw new Error(`the NER model is missing from ${defaultNerModelDir()}: run \`node dist/scripts/ensure-ner-model.js\` (CI does)`);
});

/** [type, text] of the model's spans at the default threshold. */
function found(text: string): [string, string][] {
  return modelSpans(text)
    .filter((s) => (s.score ?? 0) >= 0.5)
    .map((s) => [s.type, text.slice(s.start, s.end)]);
}

describe('statistical NER recognizer', () => {
  it('maps PERSON, ORG, GPE, LOC, FAC and NORP to name, organization, location and nrp', () => {
    expect(found('Dr. Łukasz Wróbel met Anna Schmidt at Siemens AG in Munich.')).toEqual([
      ['name', 'Łukasz Wróbel'],
      ['name', 'Anna Schmidt'],
      ['organization', 'Siemens AG'],
      ['location', 'Munich'],
    ]);
    expect(found('Mohammed bin Salman met Emmanuel Macron at the Élysée Palace.')).toEqual([
      ['name', 'Mohammed bin Salman'],
      ['name', 'Emmanuel Macron'],
      ['location', 'Élysée Palace'],
    ]);
    expect(found('She is from Texas but works in Silicon Valley.')).toEqual([
      ['location', 'Texas'],
      ['location', 'Silicon Valley'],
    ]);
    expect(found('The French delegation met the German ambassador.')).toEqual([
      ['nrp', 'French'],
      ['nrp', 'German'],
    ]);
  });

  it('leaves dates, amounts and other labels out and drops a leading article of an organization', () => {
    expect(found('The World Health Organization paid $5 million on Monday.')).toEqual([['organization', 'World Health Organization']]);
  });

  it('tags its detections `model` for the overlap resolution and names the label', () => {
    const [d] = detectText('Please forward the contract to Olusegun Bankole-Adeyemi before noon.').filter((x) => x.type === 'name');
    expect(d.text).toBe('Olusegun Bankole-Adeyemi');
    expect(d.evidence).toEqual(expect.arrayContaining(['model', 'ner:PERSON']));
  });

  it('finds names in lower-case and all-capital lines through re-casing, scored lower', () => {
    expect(found('my name is john smith and i need help with my order')).toEqual([['name', 'john smith']]);
    expect(found('JOHN SMITH AND MARY JONES LIVE IN CHICAGO, ILLINOIS.')).toEqual([
      ['name', 'JOHN SMITH'],
      ['name', 'MARY JONES'],
      ['location', 'CHICAGO'],
      ['location', 'ILLINOIS'],
    ]);
    const [lower] = modelSpans('hi my name is fatima zahra, my package never arrived');
    const [asWritten] = modelSpans('Hi, my name is Fatima Zahra, my package never arrived');
    expect(lower.evidence).toContain('recased');
    expect(lower.score).toBeLessThan(asWritten.score as number);
  });

  it('does not take field labels, currencies or numbers for organizations', () => {
    expect(found('DOB 1985-03-14, email ann.lee@acme-health.com')).toEqual([]);
    expect(found('SSN: 123-45-6789')).toEqual([]);
    expect(found('IBAN DE89 3704 0044 0532 0130 00, BIC COBADEFFXXX')).toEqual([]);
    expect(found('Pay the VAT in EUR via the API.')).toEqual([]);
    expect(found('Meine Adresse: Hauptstraße 5, 10115 Berlin').map(([t]) => t)).not.toContain('name');
  });

  it('keeps a nationality about a person and drops one about a thing', () => {
    expect(found('We had Chinese food')).toEqual([]);
    expect(found('She is a Chinese engineer.')).toEqual([['nrp', 'Chinese']]);
    expect(found('My father is Norwegian and my mother is Kenyan.')).toEqual([
      ['nrp', 'Norwegian'],
      ['nrp', 'Kenyan'],
    ]);
  });
});

/** The same characters in one case (a character whose other case has another length stays). */
function oneCase(s: string, upper: boolean): string {
  let out = '';
  for (const ch of s) {
    const c = upper ? ch.toUpperCase() : ch.toLowerCase();
    out += c.length === ch.length ? c : ch;
  }
  return out;
}

/**
 * Span recall of the model's name, organization, location and nrp spans (threshold 0.5) on the labelled free-text
 * fixtures: a gold span counts when a prediction covers at least half of it (any of the four types).
 */
function recall(strategy: RecaseStrategy, variant: 'as written' | 'lower' | 'upper'): number {
  const types = new Set(['name', 'organization', 'location', 'nrp']);
  let gold = 0;
  let hit = 0;
  for (const marked of CORPUS) {
    const parsed = parseLabelled(marked);
    const text = variant === 'as written' ? parsed.text : oneCase(parsed.text, variant === 'upper');
    const pred = modelSpans(text, (t) => recase(t, strategy)).filter((p) => (p.score ?? 0) >= 0.5);
    for (const g of parsed.spans.filter((x) => types.has(x.type))) {
      gold++;
      if (pred.some((p) => Math.min(p.end, g.end) - Math.max(p.start, g.start) >= (g.end - g.start) / 2)) hit++;
    }
  }
  return hit / gold;
}

describe('re-casing for the model', () => {
  it('raises recall on text in capitals or in lower case to that on text as written', () => {
    // Measured when written (124 gold spans): as written 0.84 → 0.86; lower case 0.52 → 0.86; capitals 0.32 → 0.86.
    const asWritten = recall('title-uncommon', 'as written');
    for (const variant of ['lower', 'upper'] as const) {
      expect(recall('none', variant)).toBeLessThan(asWritten - 0.2);
      expect(recall('title-uncommon', variant)).toBeGreaterThan(asWritten - 0.05);
    }
    expect(asWritten).toBeGreaterThanOrEqual(recall('none', 'as written'));
  });

  it('re-cases lines in one case, keeps offsets, and leaves mixed lines alone', () => {
    const text = 'Dear team,\nSHIP TO: PAOLO BIANCHI, VIA ROMA 10\nplease call maría fernández';
    const r = recaseForModel(text);
    expect(r.text.length).toBe(text.length);
    expect(r.text.split('\n')[0]).toBe('Dear team,');
    expect(r.text).toContain('Paolo Bianchi');
    expect(r.text).toContain('María Fernández');
    expect(r.text).toContain('please call');
    expect(r.changed(0, 4)).toBe(false);
    expect(r.changed(text.indexOf('PAOLO'), text.indexOf('PAOLO') + 5)).toBe(true);
  });

  it('keeps the small letters of a word in a line of capitals and leaves characters whose case changes length', () => {
    expect(recaseForModel('Patient: ŽELJKA KOVAČEVIĆ').text).toBe('Patient: Željka Kovačević');
    expect(recase('STRASSE ß', 'title').text.length).toBe('STRASSE ß'.length);
    expect(recase('Mixed Case Text', 'title-uncommon').text).toBe('Mixed Case Text');
  });
});
