// Single modules, not engine/automl's index: bench/gpu's bundle carries this file without the index's native bindings.
import { Column, Frame } from '../automl/frame';
import { Rng } from '../automl/random';
import type { SynthColumnMeta } from './types';

/**
 * What each model needs to give a column back as it went in: its kind, whether it held whole numbers only, its
 * range and its missing share. Every model type describes its training frame with this and finishes its samples
 * with `finishColumn`, so types, ranges and missing rates come back the same way whatever the model.
 */
export function describeColumns(frame: Frame): SynthColumnMeta[] {
  return frame.columns.map((c, j) => describeColumn(frame.names[j], c));
}

function describeColumn(name: string, c: Column): SynthColumnMeta {
  if (c.kind === 'categorical') {
    let missing = 0;
    for (let i = 0; i < c.codes.length; i++) if (c.codes[i] < 0) missing++;
    return { name, kind: 'categorical', integer: false, min: null, max: null, missingRate: c.codes.length ? missing / c.codes.length : 0 };
  }
  const values = c.kind === 'numeric' ? c.values : c.epochMs;
  let missing = 0;
  let integer = true;
  let min = Infinity;
  let max = -Infinity;
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (Number.isNaN(v)) {
      missing++;
      continue;
    }
    if (integer && !Number.isInteger(v)) integer = false;
    if (v < min) min = v;
    if (v > max) max = v;
  }
  const present = values.length - missing;
  return {
    name,
    kind: c.kind,
    integer: present > 0 && integer,
    min: present ? min : null,
    max: present ? max : null,
    missingRate: values.length ? missing / values.length : 0,
  };
}

/**
 * Finishes a sampled numeric or datetime column in place: values clipped to the training range, whole numbers
 * rounded, and cells set missing at the training column's missing rate (a model that learned missingness itself
 * passes `injectMissing: false`).
 */
export function finishNumeric(meta: SynthColumnMeta, values: Float64Array, rng: Rng, injectMissing = true): Float64Array {
  const lo = meta.min ?? -Infinity;
  const hi = meta.max ?? Infinity;
  for (let i = 0; i < values.length; i++) {
    let v = values[i];
    if (Number.isNaN(v)) continue;
    if (v < lo) v = lo;
    else if (v > hi) v = hi;
    if (meta.integer) v = Math.round(v);
    values[i] = v;
  }
  if (injectMissing && meta.missingRate > 0) {
    for (let i = 0; i < values.length; i++) if (rng.next() < meta.missingRate) values[i] = NaN;
  }
  if (meta.min === null) values.fill(NaN); // an all-missing column stays all missing
  return values;
}

/** A sampled column in the frame's representation for its kind. */
export function columnOf(meta: SynthColumnMeta, values: Float64Array | Int32Array, levels: string[] = []): Column {
  if (meta.kind === 'categorical') return { kind: 'categorical', codes: values as Int32Array, levels };
  if (meta.kind === 'datetime') return { kind: 'datetime', epochMs: values as Float64Array };
  return { kind: 'numeric', values: values as Float64Array };
}
