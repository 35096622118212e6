/** Network and device identifiers: IPv4/IPv6, MAC, IMEI, URL, domain names, user agents. */
import { isIPv6 } from 'node:net';
import * as cs from '../checksums';
import { COUNTRY_CODES } from './countries';
import { define, NEEDS_COLON, NEEDS_DIGIT, NEEDS_LETTER, type Recognizer } from './define';

const GENERIC_TLDS = new Set(
  'com org net edu gov mil int info biz io co ai app dev me tv cloud online site shop store tech xyz blog news health bank mobi name pro email page live world inc ltd'.split(' '),
);
/** Country TLDs that are also common file extensions: "report.py" is a file name far more often than a domain. */
const FILE_LIKE_TLDS = new Set('py js ts md sh pl rs cs ps so gz mo ml cc hh am in it is do at be to no'.split(' '));

function domainScore(d: string): number | false {
  const dot = d.lastIndexOf('.');
  const tld = d.slice(dot + 1).toLowerCase();
  if (GENERIC_TLDS.has(tld)) return 0.7;
  if (!COUNTRY_CODES.has(tld.toUpperCase())) return false;
  if (FILE_LIKE_TLDS.has(tld)) return 0.35;
  return d.split('.').length > 2 ? 0.65 : 0.55;
}

/** GSMA reporting body identifiers, the first two digits of every allocated IMEI. */
const IMEI_REPORTING_BODIES = new Set(['00', '01', '10', '30', '33', '35', '44', '45', '49', '50', '51', '52', '53', '54', '86', '91', '98', '99']);

export const NETWORK_RECOGNIZERS: Recognizer[] = [
  define({
    id: 'ip_address',
    name: 'IP address (IPv4)',
    category: 'network',
    pattern: '(?:25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)(?:\\.(?:25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)){3}',
    evidence: 'format',
    score: 0.85,
    contextScore: 0.97,
    context: ['ip', 'ip address', 'ipv4', 'address', 'host', 'server', 'client', 'from', 'login'],
    negativeContext: ['version', 'v', 'release', 'build'],
    columnHint: '(^|_)ip(_|$|v4|addr)|ip_?address|remote_?addr|client_?ip',
    needs: NEEDS_DIGIT,
  }),
  define({
    id: 'ipv6_address',
    name: 'IP address (IPv6)',
    category: 'network',
    pattern: '(?:[0-9A-Fa-f]{1,4}:){7}[0-9A-Fa-f]{1,4}|(?:[0-9A-Fa-f]{1,4}:){1,6}(?::[0-9A-Fa-f]{1,4}){1,6}|(?:[0-9A-Fa-f]{1,4}:){1,7}:|::(?:[0-9A-Fa-f]{1,4}:){0,6}[0-9A-Fa-f]{1,4}|::',
    bare: true,
    validate: (_d, raw) => isIPv6(raw) && (raw.match(/[0-9A-Fa-f]+/g)?.length ?? 0) >= 3,
    evidence: 'format',
    score: 0.9,
    contextScore: 0.98,
    context: ['ip', 'ipv6', 'address', 'host'],
    columnHint: 'ipv6|(^|_)ip(_|$)|ip_?address',
    needs: NEEDS_COLON,
  }),
  define({
    id: 'mac_address',
    name: 'MAC address',
    category: 'network',
    pattern: '[0-9A-Fa-f]{2}([:-])[0-9A-Fa-f]{2}(?:\\1[0-9A-Fa-f]{2}){4}|[0-9A-Fa-f]{4}\\.[0-9A-Fa-f]{4}\\.[0-9A-Fa-f]{4}',
    evidence: 'format',
    score: 0.9,
    contextScore: 0.98,
    context: ['mac', 'mac address', 'hardware address', 'ethernet', 'wifi', 'device'],
    columnHint: 'mac',
    needs: NEEDS_DIGIT,
  }),
  define({
    id: 'imei',
    name: 'IMEI (mobile device identity)',
    category: 'network',
    pattern: '\\d{2}([- ]?)\\d{6}\\1\\d{6}\\1\\d',
    // A type allocation code starts with a GSMA reporting body (01, 35, 86...): without one the number is more likely
    // something else that passes Luhn (a 15-digit JCB card 1800/2131, a UATP card), so it needs the word "IMEI".
    validate: (d) => cs.luhn(d) && !/^(\d)\1+$/.test(d) && (IMEI_REPORTING_BODIES.has(d.slice(0, 2)) ? 0.55 : 0.3),
    score: 0.55,
    contextScore: 0.97,
    context: ['imei', 'device id', 'handset', 'phone serial', 'device'],
    columnHint: 'imei',
    needs: NEEDS_DIGIT,
  }),
  define({
    id: 'url',
    name: 'URL',
    category: 'network',
    pattern: '(?:https?|ftp)://[^\\s<>"\'`]+[^\\s<>"\'`.,;:!?)\\]]|www\\.[A-Za-z0-9-]+\\.[^\\s<>"\'`]*[^\\s<>"\'`.,;:!?)\\]]',
    bare: true,
    evidence: 'format',
    score: 0.9,
    contextScore: 0.97,
    context: ['url', 'link', 'website', 'site', 'visit', 'profile'],
    columnHint: 'url|link|website|homepage',
    needs: NEEDS_LETTER,
  }),
  define({
    id: 'domain_name',
    name: 'Domain name',
    category: 'network',
    pattern: '(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\\.)+[A-Za-z]{2,12}',
    validate: (_d, raw) => /[A-Za-z]/.test(raw.slice(0, raw.indexOf('.'))) && domainScore(raw),
    evidence: 'format',
    score: 0.7,
    contextScore: 0.9,
    context: ['domain', 'website', 'site', 'host', 'hostname', 'dns', 'visit'],
    columnHint: 'domain|host',
    needs: NEEDS_LETTER,
  }),
  define({
    id: 'user_agent',
    name: 'Browser user agent',
    category: 'network',
    pattern:
      'Mozilla/\\d\\.\\d \\([^)]{3,200}\\)(?: [A-Za-z]+/[\\w.]*\\w(?: \\([^)]{1,100}\\))?)*|(?:curl|Wget|python-requests|okhttp|PostmanRuntime|Dalvik|Opera)/\\d+(?:\\.\\d+)*(?: \\([^)]{1,200}\\))?',
    bare: true,
    evidence: 'format',
    score: 0.92,
    contextScore: 0.98,
    context: ['user agent', 'user-agent', 'browser', 'ua'],
    columnHint: 'user_?agent|(^|_)ua($|_)|browser',
    needs: NEEDS_LETTER,
  }),
];
