/**
 * How the statistical model's proposals (detections with the evidence `model`) meet the rules in resolveOverlaps:
 * agreement, fuller spans, validators that keep their characters, addresses that keep their parts.
 */
import { resolveOverlaps } from './detect-text';
import type { Detection } from './types';

function det(text: string, type: string, part: string, confidence: number, evidence: string[], from = 0): Detection {
  const start = text.indexOf(part, from);
  if (start < 0) throw new Error(`${part} not in ${text}`);
  return { type, start, end: start + part.length, text: part, confidence, evidence };
}

const view = (ds: Detection[]): [string, string, boolean][] => ds.map((d) => [d.type, d.text, d.evidence.includes('agreement')]);

describe('rules and model combined', () => {
  it('takes the fuller span of one entity and raises the confidence when both find it', () => {
    const text = 'Please forward it to Zoë Müller today.';
    const rule = det(text, 'name', 'Zoë', 0.65, ['gazetteer']);
    const model = det(text, 'name', 'Zoë Müller', 0.8, ['model', 'ner:PERSON']);
    const out = resolveOverlaps([rule, model], text);
    expect(view(out)).toEqual([['name', 'Zoë Müller', true]]);
    expect(out[0].confidence).toBeCloseTo(0.85);
    expect(out[0].evidence).toEqual(expect.arrayContaining(['gazetteer', 'model']));
  });

  it('keeps a rule span that is fuller than the model one', () => {
    const text = 'Approved by Banco Santander yesterday.';
    const out = resolveOverlaps([det(text, 'organization', 'Banco Santander', 0.85, ['gazetteer']), det(text, 'organization', 'Santander', 0.7, ['model'])], text);
    expect(view(out)).toEqual([['organization', 'Banco Santander', true]]);
  });

  it('keeps what a format validator vouches for over a model span of another type', () => {
    const text = 'Ref 4111 1111 1111 1111 on file.';
    const card = det(text, 'credit_card', '4111 1111 1111 1111', 0.92, ['pattern', 'checksum', 'brand:visa']);
    const model = det(text, 'organization', 'Ref 4111 1111', 0.95, ['model', 'ner:ORG']);
    expect(view(resolveOverlaps([card, model], text))).toEqual([['credit_card', '4111 1111 1111 1111', false]]);
  });

  it('keeps an address whole when the model splits it into places', () => {
    const text = 'Send it to Calle Mayor 12, 28013 Madrid, Spain.';
    const address = det(text, 'address', 'Calle Mayor 12, 28013 Madrid, Spain', 0.9, ['pattern', 'address_block']);
    const pieces = [det(text, 'location', 'Madrid', 0.95, ['model', 'ner:GPE']), det(text, 'location', 'Spain', 0.95, ['model', 'ner:GPE']), det(text, 'us_zip_code', '28013', 0.95, ['context'])];
    expect(view(resolveOverlaps([address, ...pieces], text))).toEqual([['address', 'Calle Mayor 12, 28013 Madrid, Spain', false]]);
  });

  it('leaves the honorific out of a model name that takes it in', () => {
    const text = 'Dr. Amara Nwosu will see you.';
    const out = resolveOverlaps([det(text, 'title', 'Dr.', 0.9, ['honorific']), det(text, 'name', 'Amara Nwosu', 0.92, ['title']), det(text, 'name', 'Dr. Amara Nwosu', 0.8, ['model'])], text);
    expect(view(out)).toEqual([
      ['title', 'Dr.', false],
      ['name', 'Amara Nwosu', true],
    ]);
  });

  it('gives a one-word list name, a shape guess and a place-like suffix the type the model is sure of', () => {
    let text = 'Are you enjoying Houston this week?';
    let out = resolveOverlaps([det(text, 'name', 'Houston', 0.9, ['gazetteer']), det(text, 'location', 'Houston', 0.85, ['model', 'ner:GPE', 'ner_sure'])], text);
    expect(view(out)).toEqual([['location', 'Houston', false]]);
    text = "We are going to Del Frisco's for dinner.";
    out = resolveOverlaps([det(text, 'name', 'Del Frisco', 0.85, ['shape']), det(text, 'location', "Del Frisco's", 0.84, ['model', 'ner:GPE', 'ner_sure'])], text);
    expect(view(out)).toEqual([['location', "Del Frisco's", false]]);
    // A shape guess gives way to a model span of another type even when it is the longer one and the model unsure.
    text = 'Access to Enron On-Line was cut off.';
    out = resolveOverlaps([det(text, 'name', 'Enron On-Line', 0.85, ['shape']), det(text, 'organization', 'Enron', 0.73, ['model', 'ner:ORG'])], text);
    expect(view(out)).toEqual([['organization', 'Enron', false]]);
    text = 'He visited the West Bank town of Ramallah.';
    out = resolveOverlaps([det(text, 'organization', 'West Bank', 0.85, ['org_suffix']), det(text, 'location', 'West Bank', 0.85, ['model', 'ner:GPE', 'ner_sure'])], text);
    expect(view(out)).toEqual([['location', 'West Bank', false]]);
  });

  it('keeps a known full name, a known organization and a company suffix against a sure model', () => {
    let text = 'Giulia Bianchi and Marco Esposito are on leave.';
    let out = resolveOverlaps([det(text, 'name', 'Giulia Bianchi', 0.95, ['gazetteer']), det(text, 'organization', 'Giulia Bianchi', 0.8, ['model', 'ner:ORG', 'ner_sure'])], text);
    expect(view(out)).toEqual([['name', 'Giulia Bianchi', false]]);
    text = 'I have been employed by Petrobras for six years.';
    out = resolveOverlaps([det(text, 'organization', 'Petrobras', 0.85, ['gazetteer']), det(text, 'name', 'Petrobras', 0.84, ['model', 'ner:PERSON', 'ner_sure'])], text);
    expect(view(out)).toEqual([['organization', 'Petrobras', false]]);
    text = 'It says Wayne Enterprises in the attachment.';
    out = resolveOverlaps([det(text, 'organization', 'Wayne Enterprises', 0.85, ['org_suffix']), det(text, 'name', 'Wayne Enterprises', 0.84, ['model', 'ner:PERSON', 'ner_sure'])], text);
    expect(view(out)).toEqual([['organization', 'Wayne Enterprises', false]]);
  });

  it('keeps the rule type, raised, when an unsure model calls the same words something else', () => {
    const text = "I heard it from Jason ' s friend.";
    const out = resolveOverlaps([det(text, 'name', 'Jason', 0.65, ['gazetteer']), det(text, 'organization', "Jason '", 0.71, ['model', 'ner:ORG'])], text);
    expect(view(out)).toEqual([['name', 'Jason', true]]);
    expect(out[0].confidence).toBeCloseTo(0.76);
  });

  it('takes in the capitalized words of a model span beyond the rule span, not the common words', () => {
    let text = 'Rockets were fired from the Gaza Strip again.';
    let out = resolveOverlaps([det(text, 'location', 'Gaza', 0.8, ['gazetteer']), det(text, 'location', 'the Gaza Strip', 0.85, ['model', 'ner:GPE', 'ner_sure'])], text);
    expect(view(out)).toEqual([['location', 'Gaza Strip', true]]);
    text = 'Applicant Chinedu Eze signed the form.';
    out = resolveOverlaps([det(text, 'name', 'Chinedu Eze', 0.88, ['gazetteer']), det(text, 'name', 'Applicant Chinedu Eze', 0.8, ['model', 'ner:PERSON'])], text);
    expect(view(out)).toEqual([['name', 'Chinedu Eze', true]]);
  });

  it('does not take a country or state code in capitals for a shouted common word', () => {
    const text = 'The storm hit a quarter of US oil operations near Baltimore, MD.';
    const out = resolveOverlaps([det(text, 'location', 'US', 0.85, ['model', 'ner:GPE', 'ner_sure']), det(text, 'location', 'MD', 0.85, ['model', 'ner:GPE', 'ner_sure'])], text);
    expect(out.map((d) => [d.text, d.confidence >= 0.5])).toEqual([
      ['US', true],
      ['MD', true],
    ]);
  });

  it('resolves rules alone as before when no model has spoken', () => {
    const text = 'Call Anna at 555';
    const a = det(text, 'name', 'Anna', 0.7, ['gazetteer']);
    const b = det(text, 'location', 'Anna at', 0.6, ['gazetteer']);
    expect(view(resolveOverlaps([a, b], text))).toEqual([['name', 'Anna', false]]);
  });
});
