import { type LookupAddress, lookup } from 'node:dns';
import { promises as dns } from 'node:dns';
import { isIP } from 'node:net';

// A webhook must not reach into the server's own network (SSRF): an address that is
// loopback, private, link-local, shared (CGNAT), multicast or reserved is refused, in IPv4,
// IPv6 and IPv4 written inside IPv6 (mapped ::ffff:a.b.c.d, NAT64 64:ff9b::/96, 6to4
// 2002::/16). Checked when an endpoint is created and again at every delivery, on the very
// address the connection then uses (`guardedLookup`), so a name that resolves elsewhere
// later (DNS rebinding) is still refused. WEBHOOK_ALLOW_PRIVATE=1 lifts the rule (tests,
// a receiver on the same host).

const V4_REFUSED: [number, number][] = [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
].map(([base, bits]) => [v4Number(base as string), bits as number]);

function v4Number(ip: string): number {
  return ip.split('.').reduce((n, part) => n * 256 + Number(part), 0);
}

function v4Refused(n: number): boolean {
  return V4_REFUSED.some(([base, bits]) => Math.floor(n / 2 ** (32 - bits)) === Math.floor(base / 2 ** (32 - bits)));
}

/** The eight 16-bit groups of an IPv6 address (with a dotted IPv4 tail, if written so). */
function v6Groups(ip: string): number[] {
  let text = ip.split('%')[0].toLowerCase();
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const n = v4Number(dotted[1]);
    text = text.slice(0, -dotted[1].length) + `${(n >>> 16).toString(16)}:${(n & 0xffff).toString(16)}`;
  }
  const [head, tail] = text.split('::');
  const parse = (s: string | undefined) => (s ? s.split(':').map((g) => parseInt(g, 16)) : []);
  const h = parse(head);
  const t = parse(tail);
  return tail === undefined ? h : [...h, ...new Array<number>(8 - h.length - t.length).fill(0), ...t];
}

/** Whether a webhook may not be sent to this address. */
export function isRefusedAddress(ip: string): boolean {
  const family = isIP(ip.split('%')[0]);
  if (family === 4) return v4Refused(v4Number(ip));
  if (family !== 6) return true;
  const g = v6Groups(ip);
  const v4 = (hi: number, lo: number) => hi * 65536 + lo;
  if (g.slice(0, 6).every((x) => x === 0)) return true; // ::, ::1 and the old IPv4-compatible ::a.b.c.d
  if (g.slice(0, 5).every((x) => x === 0) && g[5] === 0xffff) return v4Refused(v4(g[6], g[7])); // mapped
  if (g[0] === 0x64 && g[1] === 0xff9b && g.slice(2, 6).every((x) => x === 0)) return v4Refused(v4(g[6], g[7]));
  if (g[0] === 0x2002) return v4Refused(v4(g[1], g[2])); // 6to4
  if ((g[0] & 0xfe00) === 0xfc00) return true; // unique local fc00::/7
  if ((g[0] & 0xffc0) === 0xfe80 || (g[0] & 0xffc0) === 0xfec0) return true; // link-local, old site-local
  if ((g[0] & 0xff00) === 0xff00) return true; // multicast
  if (g[0] === 0x2001 && g[1] === 0x0db8) return true; // documentation
  return false;
}

export class AddressRefused extends Error {}

/** The URL's host without the brackets of an IPv6 literal. */
function hostOf(url: URL): string {
  return url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
}

/**
 * Checks an endpoint's URL when it is created: http or https, no credentials, and a host
 * none of whose addresses is refused (a host that does not resolve yet is let through: the
 * delivery checks again). Throws AddressRefused with the reason.
 */
export async function checkEndpointUrl(text: string, allowPrivate: boolean): Promise<URL> {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new AddressRefused('must be an absolute http:// or https:// URL');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new AddressRefused('must use https:// or http://');
  if (url.username || url.password) throw new AddressRefused('must not hold a user name or password');
  if (url.hash) throw new AddressRefused('must not hold a #fragment');
  if (text.length > 2000) throw new AddressRefused('must be at most 2000 characters');
  if (allowPrivate) return url;
  const host = hostOf(url);
  let addresses: string[];
  if (isIP(host)) addresses = [host];
  else {
    try {
      addresses = (await dns.lookup(host, { all: true, verbatim: true })).map((a) => a.address);
    } catch {
      // Not resolvable yet (a receiver being set up): accepted; every delivery checks again.
      return url;
    }
  }
  const refused = addresses.find(isRefusedAddress);
  if (refused)
    throw new AddressRefused(
      `its host ${host} resolves to ${refused}, a loopback, private or link-local address (WEBHOOK_ALLOW_PRIVATE=1 allows it)`,
    );
  return url;
}

/** Refuses an IP literal host at delivery time (a literal is never looked up). */
export function checkLiteralHost(url: URL, allowPrivate: boolean): void {
  const host = hostOf(url);
  if (!allowPrivate && isIP(host) && isRefusedAddress(host))
    throw new AddressRefused(`${host} is a loopback, private or link-local address`);
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `lookup` for http.request: resolves as usual, then refuses the connection when any
 * address is refused. The socket connects to what this returned, so the check holds.
 */
export function guardedLookup(allowPrivate: boolean) {
  return (hostname: string, options: { all?: boolean }, callback: LookupCallback): void => {
    lookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, []);
      const list = addresses;
      const refused = allowPrivate ? undefined : list.find((a) => isRefusedAddress(a.address));
      if (refused) {
        const error: NodeJS.ErrnoException = new AddressRefused(
          `${hostname} resolves to ${refused.address}, a loopback, private or link-local address`,
        );
        error.code = 'EADDRREFUSED';
        return callback(error, []);
      }
      if (options.all) return callback(null, list);
      callback(null, list[0].address, list[0].family);
    });
  };
}
