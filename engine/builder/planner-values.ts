/**
 * What the deterministic planner reads in a column's most frequent values (the profile's `top_values`, up to 10 with
 * their counts): dates stored as text and categories spelled several ways. Both are judged on counts, so a few rare
 * odd values do not hide the shape of the rest.
 */

/** A value with its count among the column's most frequent values. */
export type CountedValue = [value: string, count: number];

/** Share of the counted values (by count) that read as dates, at least this for a column to be "dates as text". */
export const DATE_TEXT_SHARE = 0.8;

const MONTH = '(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)';
const CLOCK = '(?: \\d{1,2}:\\d{2}(?::\\d{2})?)?';
/**
 * The written forms `parse_dates` reads without a format (resolve.ts `DATE_FORMATS`): ISO (2021-03-15, with a time;
 * 2021/03/15), day or month first with slashes (15/03/2021, 03/15/2021 13:45), 15.03.2021, 15-03-2021, 15 Mar 2021
 * and Mar 15, 2021. A form it would not read is not proposed: the execution would find no format for it.
 */
const DATE_FORMS = [
  /^\d{4}-\d{2}-\d{2}(?:[ T]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?)?$/,
  /^\d{4}\/\d{1,2}\/\d{1,2}$/,
  new RegExp(`^\\d{1,2}/\\d{1,2}/\\d{4}${CLOCK}$`),
  /^\d{1,2}\.\d{1,2}\.\d{4}$/,
  /^\d{1,2}-\d{1,2}-\d{4}$/,
  new RegExp(`^\\d{1,2} ${MONTH} \\d{4}$`, 'i'),
  new RegExp(`^${MONTH} \\d{1,2}, \\d{4}$`, 'i'),
];

/** Whether one text value reads as a date (or date and time) in a common written form. */
export function looksLikeDate(value: string): boolean {
  const v = value.trim();
  return v.length >= 8 && v.length <= 40 && DATE_FORMS.some((re) => re.test(v));
}

/**
 * Share of the values that read as dates, the larger of by count and by distinct value (a frequent placeholder such as
 * "unknown" must not hide a column of dates, each seen once or twice), and the first date as an example.
 */
export function dateShare(values: CountedValue[]): { share: number; example: string | null; distinct: number } {
  let total = 0;
  let dates = 0;
  let distinct = 0;
  let example: string | null = null;
  for (const [v, n] of values) {
    total += n;
    if (!looksLikeDate(v)) continue;
    dates += n;
    distinct++;
    example ??= v;
  }
  const byCount = total === 0 ? 0 : dates / total;
  const byValue = values.length === 0 ? 0 : distinct / values.length;
  return { share: Math.max(byCount, byValue), example, distinct };
}

/** The key under which spellings of one category meet: trimmed, inner spaces collapsed, lower case. */
export function categoryKey(value: string): string {
  return value.trim().replace(/\s+/g, ' ').toLowerCase();
}

/** How a text column's values are messy: spellings that differ only in case, or only in spaces; `examples` shows them. */
export interface TextMess {
  caseVariants: boolean;
  spaceVariants: boolean;
  /** Values (up to 3) with stray spaces or another value's spelling, quoted for a reason line. */
  examples: string[];
}

/**
 * Spellings of one value that differ only in case or spaces ("Male", "male ", "MALE"), and values with leading,
 * trailing or doubled spaces; null when the values are tidy.
 */
export function textMess(values: CountedValue[]): TextMess | null {
  const groups = new Map<string, string[]>();
  for (const [v] of values) {
    const key = categoryKey(v);
    const group = groups.get(key);
    if (group) group.push(v);
    else groups.set(key, [v]);
  }
  let caseVariants = false;
  let spaceVariants = false;
  const examples: string[] = [];
  for (const group of groups.values()) {
    const spaced = group.filter((v) => v !== v.trim().replace(/\s+/g, ' '));
    const cases = new Set(group.map((v) => v.trim().replace(/\s+/g, ' ')));
    if (cases.size > 1) caseVariants = true;
    if (spaced.length > 0) spaceVariants = true;
    if (cases.size > 1 || spaced.length > 0) for (const v of group) if (examples.length < 3 && !examples.includes(v)) examples.push(v);
  }
  return caseVariants || spaceVariants ? { caseVariants, spaceVariants, examples } : null;
}
