/**
 * The entity tagger: its tokens, its model's decoding and storage, how its spans join the engine's, and the shipped
 * weights on text where the engine alone finds nothing.
 */
import { configureEntityTagger, detectText } from '..';
import type { Detection } from '../types';
import { TAGS, TaggerModel, TaggerTrainer, tokenize, type TokenInput } from '.';
import { mergeTagged } from './merge';
import { featureRow } from './model';
import weights from './weights.json';

const det = (type: string, start: number, end: number, confidence = 0.9): Detection => ({ type, start, end, text: '', confidence, evidence: [] });
const input = (...features: string[]): TokenInput => ({ rows: features.map(featureRow), transitions: TAGS.map((p) => [featureRow(`pt=${p}`)]) });

afterEach(() => configureEntityTagger('union'));

describe('tokenize', () => {
  it('keeps handles, hashtags, inner apostrophes, hyphens and underscores in one token', () => {
    expect(tokenize("@edsheeran met O'Brien-Smith at #Glasto, see Lisa_cv.doc!").map((t) => t.text)).toEqual(['@edsheeran', 'met', "O'Brien-Smith", 'at', '#Glasto', ',', 'see', 'Lisa_cv.doc', '!']);
  });
});

describe('the model', () => {
  it('learns a tagging, never decodes an I- tag after O, and keeps its decisions through storage', () => {
    const trainer = new TaggerTrainer();
    const sentence = [input('w=anna'), input('w=berg'), input('w=runs')];
    const gold = [TAGS.indexOf('B-PER'), TAGS.indexOf('I-PER'), 0];
    for (let i = 0; i < 5; i++) trainer.learn(sentence, gold);
    const model = trainer.averaged();
    expect(model.decode(sentence).tags).toEqual(gold);
    const stored = TaggerModel.deserialize(model.serialize());
    expect(stored.decode(sentence).tags).toEqual(gold);
    // Only an I-PER feature on a lone token: the decoder may not open a span with I-.
    const lone = new TaggerTrainer();
    lone.learn([input('x')], [TAGS.indexOf('B-PER')]);
    const tags = lone
      .averaged()
      .decode([input('y'), input('x')])
      .tags.map((t) => TAGS[t]);
    for (let i = 0; i < tags.length; i++) if (tags[i].startsWith('I-')) expect(tags[i - 1]?.slice(2)).toBe(tags[i].slice(2));
  });

  it('refuses weights of another format', () => {
    expect(() => TaggerModel.deserialize({ ...weights, buckets: 1 << 10 })).toThrow(/another format/);
  });
});

describe('mergeTagged', () => {
  const engine = [det('address', 0, 20), det('name', 30, 35, 0.6), det('organization', 40, 50, 0.95)];
  const tagged = [det('location', 5, 10, 0.7), det('name', 30, 38, 0.8), det('name', 60, 65, 0.7)];

  it('union: adds only the spans that touch none of the engine’s', () => {
    expect(mergeTagged(engine, tagged, 'union').map((d) => [d.type, d.start, d.end])).toEqual([
      ['address', 0, 20],
      ['name', 30, 35],
      ['organization', 40, 50],
      ['name', 60, 65],
    ]);
  });

  it('replace: the tagger’s names, organizations and places, never cutting into another type; a well-supported engine span it has nothing over stays', () => {
    expect(mergeTagged(engine, tagged, 'replace').map((d) => [d.type, d.start, d.end])).toEqual([
      ['address', 0, 20],
      ['name', 30, 38],
      ['organization', 40, 50],
      ['name', 60, 65],
    ]);
  });

  it('off: the engine’s as they are', () => {
    expect(mergeTagged(engine, tagged, 'off')).toBe(engine);
  });
});

describe('the shipped weights in detectText', () => {
  it('find entities in chat written in lower case that neither the model nor the rules read, and only those', () => {
    // What a retrained tagger finds of these varies; that it finds some and nothing else does not.
    const chat: [string, string][] = [
      ['grabbing coffee at starbucks before work', 'starbucks'],
      ['omg just met zayn at the airport lol', 'zayn'],
      ['see you in nz next month', 'nz'],
    ];
    configureEntityTagger('off');
    for (const [text] of chat) expect(detectText(text)).toEqual([]);
    configureEntityTagger('union');
    const added = chat.flatMap(([text]) => detectText(text).map((d) => ({ ...d, sentence: text })));
    expect(added.length).toBeGreaterThan(0);
    for (const d of added) {
      expect(d.evidence).toEqual(['tagger']);
      expect(chat.find(([text]) => text === d.sentence)?.[1]).toBe(d.text);
    }
  });

  it('add nothing to a line written in capitals, nor to a file name', () => {
    expect(detectText('GREAT NEWS: THE NEW DASHBOARD IS LIVE!')).toEqual([]);
    expect(detectText('- Lisa_coverletter.doc << File: Lisa_coverletter.doc >>').filter((d) => d.type === 'name')).toEqual([]);
  });

  it('say what they were trained on', () => {
    expect(weights.trainedOn.join(' ')).toMatch(/wnut17train\.conll/);
    expect(weights.trainedOn.filter((f) => /(?:^|[.-])test(?:[.]|$)/.test(f.split(':').pop() ?? ''))).toEqual([]);
  });
});
