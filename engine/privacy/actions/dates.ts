/** Parsing and writing the dates the date recognizers find, for generalize (to month or year) and pseudonymize (a shift). */

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const MONTH_NAMES = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

export type DateStyle = 'iso' | 'us' | 'eu' | 'written';

export interface ParsedDate {
  year: number;
  month: number;
  day: number;
  style: DateStyle;
  /** Separator of a numeric date. */
  sep: string;
}

/** A date in one of the recognized forms; numeric dates read as month/day unless the first field cannot be a month. */
export function parseDate(raw: string): ParsedDate | undefined {
  const s = raw.trim();
  let m = /^(\d{4})-(\d{1,2})-(\d{1,2})/.exec(s);
  if (m) return { year: +m[1], month: +m[2], day: +m[3], style: 'iso', sep: '-' };
  m = /^(\d{1,2})([/.-])(\d{1,2})\2(\d{2,4})$/.exec(s);
  if (m) {
    const year = m[4].length === 2 ? 2000 + +m[4] - (+m[4] > 30 ? 100 : 0) : +m[4];
    return +m[1] > 12 ? { year, month: +m[3], day: +m[1], style: 'eu', sep: m[2] } : { year, month: +m[1], day: +m[3], style: 'us', sep: m[2] };
  }
  const month = /[A-Za-z]{3}/.exec(s);
  const day = /\b(\d{1,2})(?:st|nd|rd|th)?\b/.exec(s);
  const year = /\b(\d{4})\b/.exec(s);
  if (month && year && MONTHS.includes(month[0].toLowerCase())) return { year: +year[1], month: MONTHS.indexOf(month[0].toLowerCase()) + 1, day: day ? +day[1] : 1, style: 'written', sep: ' ' };
  return undefined;
}

const pad = (n: number): string => String(n).padStart(2, '0');

/** A date written in the style it was read in. */
export function formatDate(d: ParsedDate): string {
  if (d.style === 'iso') return `${d.year}-${pad(d.month)}-${pad(d.day)}`;
  if (d.style === 'us') return `${pad(d.month)}${d.sep}${pad(d.day)}${d.sep}${d.year}`;
  if (d.style === 'eu') return `${pad(d.day)}${d.sep}${pad(d.month)}${d.sep}${d.year}`;
  return `${MONTH_NAMES[d.month - 1]} ${d.day}, ${d.year}`;
}

/** The date moved by a number of days. */
export function shiftDate(d: ParsedDate, days: number): ParsedDate {
  const t = new Date(Date.UTC(d.year, d.month - 1, d.day) + days * 86400000);
  return { ...d, year: t.getUTCFullYear(), month: t.getUTCMonth() + 1, day: t.getUTCDate() };
}
