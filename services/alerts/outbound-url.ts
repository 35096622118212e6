import dns from 'node:dns';
import { BlockList, isIP, type LookupFunction } from 'node:net';

/**
 * The SSRF guard of alert channels: a URL the service posts to on a user's behalf may not carry credentials, may only
 * be http(s), and (unless ALERT_ALLOW_PRIVATE_TARGETS) may not reach loopback, private, link-local or otherwise
 * internal addresses, or a project member could make the service probe its own network. The check runs when a
 * channel is saved (a readable 422) and again on every connection ({@link guardedLookup}), since a name can resolve
 * elsewhere later (DNS rebinding).
 */

const INTERNAL = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  INTERNAL.addSubnet(net, bits, 'ipv4');
for (const [net, bits] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
  // NAT64 prefixes embed an IPv4 address: refused whole rather than decoded.
  ['64:ff9b::', 96],
  ['64:ff9b:1::', 48],
] as const)
  INTERNAL.addSubnet(net, bits, 'ipv6');

/** Whether an IP address is one the guard keeps channels away from (IPv4-mapped IPv6 addresses count as their IPv4). */
export function isInternalAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return true;
  return INTERNAL.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

export const PRIVATE_TARGET_MESSAGE = 'The host resolves to a loopback, private or link-local address, which alert channels may not reach';

/** How long a save waits for DNS before it accepts the URL (its deliveries check again). */
const LOOKUP_TIMEOUT_MS = 3000;

/** Why `raw` is not a URL a channel may post to (its syntax only), or null. */
export function urlSyntaxProblem(raw: string, opts: { httpsOnly?: boolean } = {}): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'Must be an absolute URL';
  }
  if (opts.httpsOnly ? url.protocol !== 'https:' : url.protocol !== 'http:' && url.protocol !== 'https:') return opts.httpsOnly ? 'Must be an https URL' : 'Must be an http or https URL';
  if (url.username || url.password) return 'Must not contain credentials';
  if (!url.hostname) return 'Must name a host';
  return null;
}

/**
 * Why `raw` may not be a channel's target, or null: its syntax, then (without `allowPrivate`) where its host
 * resolves. A name that does not resolve now is accepted: its deliveries will fail and say why.
 */
export async function outboundUrlProblem(raw: string, opts: { allowPrivate: boolean; httpsOnly?: boolean }): Promise<string | null> {
  const syntax = urlSyntaxProblem(raw, opts);
  if (syntax || opts.allowPrivate) return syntax;
  const host = new URL(raw).hostname.replace(/^\[|\]$/g, '');
  if (isIP(host)) return isInternalAddress(host) ? PRIVATE_TARGET_MESSAGE : null;
  const addresses = await Promise.race([
    dns.promises.lookup(host, { all: true }).catch(() => []),
    new Promise<dns.LookupAddress[]>((resolve) => setTimeout(() => resolve([]), LOOKUP_TIMEOUT_MS).unref()),
  ]);
  return addresses.some((a) => isInternalAddress(a.address)) ? PRIVATE_TARGET_MESSAGE : null;
}

/**
 * A `lookup` for http(s).request that refuses internal addresses at connection time, so the address checked is the
 * address connected to. IP literals in the URL do not go through `lookup`: callers check them first.
 */
export const guardedLookup: LookupFunction = (hostname, options, callback) => {
  dns.lookup(hostname, { ...options, all: true }, (err, addresses) => {
    if (err) return callback(err, '', 0);
    const list = addresses as dns.LookupAddress[];
    if (list.length === 0 || list.some((a) => isInternalAddress(a.address))) return callback(new Error(PRIVATE_TARGET_MESSAGE), '', 0);
    if (options.all) return (callback as unknown as (e: null, a: dns.LookupAddress[]) => void)(null, list);
    callback(null, list[0].address, list[0].family);
  });
};
