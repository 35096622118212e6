/**
 * Turning `SynthConditions` (exact column values every generated row must hold) into constraints on the copula's
 * latent normals, or a SynthConditionError when a condition cannot be met.
 *
 * - A category pins its column's dimension to the category's interval (and, for a numeric column, the missing
 *   indicator to "present").
 * - A whole number in a whole-number column pins the value dimension to the interval that rounds to it, a tied or
 *   discrete value (an atom of an empirical marginal) to its probability interval, any other number to the single
 *   point Φ⁻¹(F(x)). The row then holds exactly that value.
 */
import type { SynthColumnMeta, SynthConditions } from '../types';
import { empiricalMass, Marginal, MarginalJSON } from './marginals';
import { clampU, CopulaParams } from './model';
import { normPpf } from './special';
import { LatentConstraints } from './tmvn';

import { SynthConditionError } from '../errors';

export { SynthConditionError };

/** The latent constraints of a set of conditions, and the exact value each conditioned column takes. */
export interface ResolvedConditions {
  latent: LatentConstraints;
  /** Column index → the value its cells take (a number, epoch ms, or a category code). */
  fixed: Map<number, number>;
}

const MAX_LISTED_CATEGORIES = 10;

/** Resolves conditions against a fitted copula; throws SynthConditionError for one that cannot be met. */
export function resolveConditions(columns: SynthColumnMeta[], params: CopulaParams, marginals: Array<Marginal | null>, conditions: SynthConditions): ResolvedConditions {
  const latent: LatentConstraints = { equal: [], box: [] };
  const fixed = new Map<number, number>();
  for (const [name, raw] of Object.entries(conditions)) {
    const j = columns.findIndex((c) => c.name === name);
    if (j < 0) throw new SynthConditionError(`Condition on unknown column "${name}"; the model's columns are: ${columns.map((c) => c.name).join(', ')}`);
    const meta = columns[j];
    const enc = params.encodings[j];
    if (enc.kind === 'categorical') {
      const levels = params.levels[j];
      const code = findLevel(levels, raw);
      const k = code < 0 ? -1 : enc.order.indexOf(code);
      if (k < 0) {
        const known = levels.slice(0, MAX_LISTED_CATEGORIES).map((l) => JSON.stringify(l));
        const more = levels.length > MAX_LISTED_CATEGORIES ? `, … (${levels.length} in all)` : '';
        throw new SynthConditionError(`Column "${name}" never held the value ${JSON.stringify(raw)} in the training data (its values: ${known.join(', ')}${more})`);
      }
      latent.box.push({ dim: enc.dim, lo: normPpf(enc.cum[k]), hi: normPpf(enc.cum[k + 1]) });
      fixed.set(j, code);
      continue;
    }
    const x = numericValue(meta, raw);
    if (enc.valueDim < 0 || meta.min === null || meta.max === null) throw new SynthConditionError(`Column "${name}" has no value in the training data, so it cannot be conditioned on`);
    const shown = meta.kind === 'datetime' ? new Date(x).toISOString() : String(x);
    if (x < meta.min || x > meta.max) {
      const range = meta.kind === 'datetime' ? `${new Date(meta.min).toISOString()} … ${new Date(meta.max).toISOString()}` : `${meta.min} … ${meta.max}`;
      throw new SynthConditionError(`Column "${name}": ${shown} is outside the training range ${range}`);
    }
    if (meta.integer && !Number.isInteger(x)) throw new SynthConditionError(`Column "${name}" held whole numbers only; ${shown} cannot be generated`);
    const marginal = marginals[j] as Marginal;
    if (meta.integer) {
      const lo = marginal.cdf(x - 0.5);
      const hi = marginal.cdf(x + 0.5);
      if (!(hi > lo)) throw new SynthConditionError(`Column "${name}": the model gives the value ${shown} no probability (it lies in a gap of the training values)`);
      latent.box.push({ dim: enc.valueDim, lo: normPpf(clampU(lo)), hi: normPpf(clampU(hi)) });
    } else {
      // A tied or discrete value is an atom of the marginal: it pins an interval, as a category does.
      const mass = empiricalMass(enc.marginal as MarginalJSON, x);
      if (mass === 'gap') throw new SynthConditionError(`Column "${name}" never held the value ${shown} (it lies between the values it held)`);
      if (mass) latent.box.push({ dim: enc.valueDim, lo: normPpf(clampU(mass.atom[0])), hi: normPpf(clampU(mass.atom[1])) });
      else latent.equal.push({ dim: enc.valueDim, value: normPpf(clampU(marginal.cdf(x))) });
    }
    if (enc.missingDim >= 0) latent.box.push({ dim: enc.missingDim, lo: -Infinity, hi: normPpf(enc.presentShare) });
    fixed.set(j, x);
  }
  return { latent, fixed };
}

/** The code of a category given as a string, number or boolean (booleans also match "True"/"FALSE" and the like). */
function findLevel(levels: string[], raw: string | number | boolean): number {
  const s = String(raw);
  const exact = levels.indexOf(s);
  if (exact >= 0) return exact;
  if (typeof raw === 'boolean') return levels.findIndex((l) => l.toLowerCase() === s);
  return -1;
}

/** A numeric condition's value: a number or numeric string; for datetimes epoch ms or a date string. */
function numericValue(meta: SynthColumnMeta, raw: string | number | boolean): number {
  let x = NaN;
  if (typeof raw === 'number') x = raw;
  else if (typeof raw === 'string' && raw.trim() !== '') x = meta.kind === 'datetime' && !/^-?\d+(\.\d+)?$/.test(raw.trim()) ? Date.parse(raw) : Number(raw);
  if (!Number.isFinite(x)) {
    const expected = meta.kind === 'datetime' ? 'a date/time or epoch milliseconds' : 'a number';
    throw new SynthConditionError(`Column "${meta.name}" expects ${expected}; got ${JSON.stringify(raw)}`);
  }
  return x;
}
