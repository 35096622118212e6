import type { GetBody } from './api';
import { Field, Select } from './ui';

/** One feature of a model's input: its name and the dtype the API names (`int64`, `float64`, `object`, `bool`...). */
export type FeatureColumn = GetBody<'/api/models/{model_id}'>['input_schema'][number];

/** Whether a dtype holds numbers (an `<input type=number>` and a slider fit it). */
export function isNumericDtype(dtype: string): boolean {
  return /int|float|double|number/.test(dtype);
}

/** A row's values as the inputs hold them: text, '' for a missing value. */
export function textRow(schema: FeatureColumn[], row: Record<string, unknown>): Record<string, string> {
  return Object.fromEntries(schema.map((c) => [c.name, row[c.name] === null || row[c.name] === undefined ? '' : String(row[c.name])]));
}

/** The inputs' text as a row the API takes: '' is a missing value (null), numeric features are numbers. */
export function typedValue(c: FeatureColumn, v: string | undefined): string | number | null {
  if (v === undefined || v === '') return null;
  return isNumericDtype(c.dtype) ? Number(v) : v;
}

export function typedRow(schema: FeatureColumn[], values: Record<string, string>): Record<string, string | number | null> {
  return Object.fromEntries(schema.map((c) => [c.name, typedValue(c, values[c.name])]));
}

/** Where a numeric feature's slider runs (the training data's range, from a sample). */
export interface FeatureRange {
  min: number;
  max: number;
  integer: boolean;
}

/** min / max of each numeric feature over some rows: the sliders' ranges. */
export function rangesOf(schema: FeatureColumn[], rows: Record<string, unknown>[]): Record<string, FeatureRange> {
  const out: Record<string, FeatureRange> = {};
  for (const c of schema) {
    if (!isNumericDtype(c.dtype)) continue;
    const xs = rows.map((r) => r[c.name]).filter((v): v is number => typeof v === 'number' && Number.isFinite(v));
    if (xs.length === 0) continue;
    const min = Math.min(...xs);
    const max = Math.max(...xs);
    if (max > min) out[c.name] = { min, max, integer: xs.every(Number.isInteger) };
  }
  return out;
}

/** Up to 50 most frequent values of each text feature over some rows: suggestions for its input. */
export function levelsOf(schema: FeatureColumn[], rows: Record<string, unknown>[]): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const c of schema) {
    if (isNumericDtype(c.dtype) || c.dtype === 'bool') continue;
    const counts = new Map<string, number>();
    for (const r of rows) if (r[c.name] !== null && r[c.name] !== undefined) counts.set(String(r[c.name]), (counts.get(String(r[c.name])) ?? 0) + 1);
    if (counts.size > 0)
      out[c.name] = [...counts]
        .sort((a, b) => b[1] - a[1])
        .slice(0, 50)
        .map(([v]) => v);
  }
  return out;
}

/**
 * The inputs of one row, built from a feature schema: a yes/no select for booleans, a number field for numeric
 * features (with a slider over `ranges` where one is given), a text field otherwise (suggesting `levels` where
 * given). Every control is labelled.
 */
export function FeatureFields({
  schema,
  values,
  onChange,
  ranges = {},
  levels = {},
}: {
  schema: FeatureColumn[];
  values: Record<string, string>;
  onChange: (values: Record<string, string>) => void;
  ranges?: Record<string, FeatureRange>;
  levels?: Record<string, string[]>;
}) {
  const set = (name: string, v: string) => onChange({ ...values, [name]: v });
  return (
    <div class="grid2 tight">
      {schema.map((c) => {
        if (c.dtype === 'bool') {
          return <Select key={c.name} label={c.name} value={values[c.name] ?? ''} options={[['', '(missing)'], 'true', 'false']} onChange={(e) => set(c.name, e.currentTarget.value)} />;
        }
        const range = ranges[c.name];
        const options = levels[c.name];
        const listId = options ? `levels-${schema.indexOf(c)}` : undefined;
        const field = (
          <Field
            key={c.name}
            label={`${c.name} (${c.dtype})`}
            name={c.name}
            type={isNumericDtype(c.dtype) ? 'number' : 'text'}
            step="any"
            list={listId}
            value={values[c.name] ?? ''}
            onInput={(e) => set(c.name, e.currentTarget.value)}
          />
        );
        if (options) {
          return (
            <div key={c.name}>
              {field}
              <datalist id={listId}>
                {options.map((o) => (
                  <option key={o} value={o} />
                ))}
              </datalist>
            </div>
          );
        }
        if (!range) return field;
        const step = range.integer ? 1 : (range.max - range.min) / 100;
        return (
          <div key={c.name} class="slider">
            {field}
            <Field
              label={`${c.name} slider`}
              type="range"
              min={range.min}
              max={range.max}
              step={step}
              value={values[c.name] === '' || values[c.name] === undefined ? String(range.min) : values[c.name]}
              onInput={(e) => set(c.name, range.integer ? e.currentTarget.value : String(Number(Number(e.currentTarget.value).toPrecision(6))))}
            />
          </div>
        );
      })}
    </div>
  );
}
