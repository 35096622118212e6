/**
 * detectText where the model and the rules meet on text as people write it: a place the model reads in its sentence
 * is not a gazetteer's surname, a place code or an acronym the model is sure of is not dropped as a common word, chat
 * words and file names are no entities, a lone lower-case given name is a name, and the transform of a free-text
 * value changes exactly the spans detection reports.
 */
import { detectText } from './detect-text';
import { lexicon } from './lexicon';
import { defaultNerModelDir, nerAvailable } from './ner';
import { transformText } from './transform-text';

beforeAll(() => {
  if (!nerAvailable()) throw new Error(`the NER model is missing from ${defaultNerModelDir()}: run \`node dist/scripts/ensure-ner-model.js\` (CI does)`);
});

const ENTITY_TYPES = new Set(['name', 'organization', 'location', 'nrp']);
/** [type, text] of the entity spans detectText reports. */
const entities = (text: string): [string, string][] =>
  detectText(text)
    .filter((d) => ENTITY_TYPES.has(d.type))
    .map((d) => [d.type, d.text]);

describe('model spans are kept and typed as the model reads them', () => {
  it.each([
    ['Are you enjoying Houston this week?', [['location', 'Houston']]],
    [
      'He visited the West Bank town of Ramallah.',
      [
        ['location', 'West Bank'],
        ['location', 'Ramallah'],
      ],
    ],
    ['They fired rockets from the Gaza Strip after the truce.', [['location', 'Gaza Strip']]],
    [
      'Last year he flew to Asia and then to Europe.',
      [
        ['location', 'Asia'],
        ['location', 'Europe'],
      ],
    ],
    ['The US army moved into the town.', [['location', 'US']]],
    ['The UN is reluctant to get involved.', [['organization', 'UN']]],
    ['We had lunch with Bill yesterday.', [['name', 'Bill']]],
  ])('%j', (text, expected) => {
    expect(entities(text)).toEqual(expected);
  });

  it('takes no chat word, shout, elongation, file name or emoji for an entity', () => {
    for (const text of ['LOL that was great, see you at the game', 'OMG THANK YOU SO MUCH', 'Awwwww so cute 😍 😍', '(See attached file: TEXT.htm)']) {
      expect([text, entities(text)]).toEqual([text, []]);
    }
  });
});

describe('lower-case given names', () => {
  it('finds a lone given name written in lower case, without a cue word', () => {
    expect(entities('Did anyone notice gaby gave more soda to diego')).toEqual([
      ['name', 'gaby'],
      ['name', 'diego'],
    ]);
  });

  it('leaves given names that are also words, and names inside handles, addresses and files', () => {
    expect(entities('that was a good chance for me to grow')).toEqual([]);
    expect(entities('the form lists username samuel_706 and an address emily@example.com')).toEqual([]);
  });

  it('knows English given names from the census and the places compromise files as places', () => {
    const lex = lexicon();
    for (const given of ['bill', 'ray', 'holly', 'rusty']) expect([given, lex.firstNames.has(given)]).toEqual([given, true]);
    for (const place of ['asia', 'europe', 'baltimore']) expect([place, lex.places.has(place), lex.common.has(place)]).toEqual([place, true, false]);
    // Abbreviations compromise files as places stay common words ("St", "Ave").
    expect([lex.places.has('st'), lex.common.has('st')]).toEqual([false, true]);
  });
});

describe('the transform of free text', () => {
  it('changes exactly the detected spans of the types with a rule', () => {
    const text = 'Are you enjoying Houston? Write to Kathleen Moore at kathleen.moore@example.com or call +1 212 555 0101.';
    const found = detectText(text);
    const rules = { location: { action: 'redact' as const }, email: { action: 'redact' as const } };
    const out = transformText(text, found, rules);
    const expected = found
      .filter((d) => d.type in rules)
      .reverse()
      .reduce((t, d) => t.slice(0, d.start) + '[REDACTED]' + t.slice(d.end), text);
    expect(out.text).toBe(expected);
    expect(out.applied).toBe(found.filter((d) => d.type in rules).length);
    expect(out.text).not.toContain('Houston');
    expect(out.text).toContain('Kathleen Moore');
  });

  it('would resolve overlaps otherwise if detection were restricted to the rule types (why the transform is not)', () => {
    const text = 'Are you enjoying Houston this week?';
    expect(detectText(text).map((d) => [d.type, d.text])).toEqual([['location', 'Houston']]);
    expect(detectText(text, { types: ['name'] }).map((d) => [d.type, d.text])).toEqual([['name', 'Houston']]);
  });
});
