/**
 * generalize: keep a coarser truth. Dates to their month or year, ages to bands (HIPAA: 90 and over as one band),
 * postal codes to a prefix, coordinates to a grid cell, IPv4 addresses to their network. Types without a coarser
 * form (a name, an account number) have none: they are redacted to `[type]`, which the result says.
 */
import { parseDate } from './dates';

export interface GeneralizeConfig {
  /** Dates: `month` (default) or `year`. */
  dateTo?: 'month' | 'year';
  /** Ages: band width in years (default 10). */
  ageBand?: number;
  /** Postal codes: characters kept (default 3; UK postcodes keep their outward code). */
  postalPrefix?: number;
  /** Coordinates: grid size in degrees (default 0.1, about 11 km). */
  gridDegrees?: number;
  /** IPv4: prefix length kept (default 24). */
  ipv4Prefix?: number;
}

const POSTAL = new Set(['us_zip_code', 'de_postal_code', 'in_pin_code', 'br_cep', 'nl_postcode', 'jp_postal_code', 'ca_postal_code']);

export function generalizeDate(raw: string, to: 'month' | 'year'): string | undefined {
  const d = parseDate(raw);
  if (!d) return undefined;
  return to === 'year' ? String(d.year) : `${d.year}-${String(d.month).padStart(2, '0')}`;
}

export function generalizeAge(raw: string, band: number): string | undefined {
  const age = Number(raw.trim());
  if (!Number.isFinite(age) || age < 0) return undefined;
  if (age >= 90) return '90+';
  const lo = Math.floor(age / band) * band;
  return `${lo}-${Math.min(lo + band - 1, 89)}`;
}

export function generalizePostal(raw: string, type: string, keep: number): string {
  const v = raw.trim().toUpperCase();
  if (type === 'uk_postcode') return v.includes(' ') ? v.split(' ')[0] : v.slice(0, v.length - 3);
  let kept = 0;
  let out = '';
  for (const ch of v) {
    if (/[A-Z0-9]/.test(ch)) out += kept++ < keep ? ch : '*';
    else out += ch;
  }
  return out;
}

export function generalizeCoordinates(raw: string, grid: number): string | undefined {
  const m = /([-+]?\d+(?:\.\d+)?)\s*,\s*([-+]?\d+(?:\.\d+)?)/.exec(raw);
  if (!m) return undefined;
  const decimals = Math.max(0, Math.ceil(-Math.log10(grid)));
  const snap = (x: number): string => (Math.floor(x / grid) * grid + grid / 2).toFixed(decimals + 1);
  return `${snap(Number(m[1]))}, ${snap(Number(m[2]))}`;
}

export function generalizeIpv4(raw: string, prefix: number): string | undefined {
  const parts = raw.trim().split('.').map(Number);
  if (parts.length !== 4 || parts.some((p) => !(p >= 0 && p <= 255))) return undefined;
  const n = ((parts[0] << 24) | (parts[1] << 16) | (parts[2] << 8) | parts[3]) >>> 0;
  const masked = prefix === 0 ? 0 : (n & (~0 << (32 - prefix))) >>> 0;
  return `${masked >>> 24}.${(masked >>> 16) & 255}.${(masked >>> 8) & 255}.${masked & 255}/${prefix}`;
}

/** The generalized value, or `[type]` for a type with no coarser form (or a value that does not parse). */
export function generalizeValue(value: string, type: string, config: GeneralizeConfig = {}): string {
  let out: string | undefined;
  if (type === 'date' || type === 'date_of_birth') out = generalizeDate(value, config.dateTo ?? 'month');
  else if (type === 'age') out = generalizeAge(value, config.ageBand ?? 10);
  else if (POSTAL.has(type) || type === 'uk_postcode') out = generalizePostal(value, type, config.postalPrefix ?? 3);
  else if (type === 'coordinates') out = generalizeCoordinates(value, config.gridDegrees ?? 0.1);
  else if (type === 'ip_address') out = generalizeIpv4(value, config.ipv4Prefix ?? 24);
  return out ?? `[${type}]`;
}
