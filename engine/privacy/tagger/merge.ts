/**
 * How the tagger's spans join the engine's detections. The tagger saw every reading of the engine as a feature, so
 * where it tags names, organizations and places it has the last word on them; the engine's other types (addresses,
 * identifiers, contact data, titles, groups) are the rules' and stay as they are, and a tagger span never cuts into
 * one of them.
 */
import type { Detection } from '../types';
import { TAGGER_TYPES } from '.';

export type TaggerMode = 'off' | 'union' | 'replace';

const overlaps = (a: Detection, b: Detection): boolean => a.start < b.end && b.start < a.end;

/**
 * `union`: the engine's detections and the tagger's spans that touch none of them. `replace`: the engine's names,
 * organizations and places are kept only where the tagger proposes nothing over them and they are well supported
 * (`keepAbove`); the tagger's spans take their place.
 */
export function mergeTagged(engine: Detection[], tagged: Detection[], mode: TaggerMode, keepAbove = 0.8): Detection[] {
  if (mode === 'off' || tagged.length === 0) return engine;
  if (mode === 'union') {
    const added = tagged.filter((t) => !engine.some((d) => overlaps(d, t)));
    return added.length ? [...engine, ...added].sort((a, b) => a.start - b.start) : engine;
  }
  const others = engine.filter((d) => !TAGGER_TYPES.has(d.type));
  const entities = engine.filter((d) => TAGGER_TYPES.has(d.type));
  const keptEntities = entities.filter((d) => d.confidence >= keepAbove && !tagged.some((t) => overlaps(d, t)));
  const added = tagged.filter((t) => !others.some((d) => overlaps(d, t)));
  return [...others, ...keptEntities, ...added].sort((a, b) => a.start - b.start);
}
