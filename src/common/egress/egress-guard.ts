import { lookup as dnsLookup } from 'node:dns/promises';
import type { LookupAddress } from 'node:dns';
import { isIP } from 'node:net';
import { AddressPolicy, describeRange, isLocalhostName, parseIpLiteral, refusalOf } from './address-policy';

/** Resolves a host name to every address it has (no IP literals are passed in). */
export type Resolver = (host: string) => Promise<string[]>;

export const systemResolver: Resolver = async (host) =>
  (await dnsLookup(host, { all: true, verbatim: true })).map((a) => a.address);

/** The one address a connection may use: checked against the policy, never resolved again. */
export interface PinnedAddress {
  address: string;
  family: 4 | 6;
}

/**
 * A host the policy refuses (or that does not resolve). `detail` names the addresses and ranges and
 * is for logs only; `publicReason` is safe to show the client: for a host name it never says what
 * the name resolved to (that would map internal DNS for an attacker).
 */
export class EgressRefusal extends Error {
  constructor(
    readonly host: string,
    readonly publicReason: string,
    readonly detail: string,
    /** The name did not resolve (DNS error or no address), as opposed to a refused address. */
    readonly unresolvable = false,
    /** DNS error code when unresolvable (ENOTFOUND, EAI_AGAIN...). */
    readonly dnsCode?: string,
    /**
     * Why, for the client in plain words without internal detail: "a link-local address" for an
     * IP literal, "does not resolve to a public address" for a name.
     */
    readonly plainReason?: string,
  ) {
    super(`${host}: ${detail}`);
    this.name = 'EgressRefusal';
  }
}

/**
 * The single outbound-address check of the service (scans and PDF `url` inputs): resolves a host
 * itself, refuses it when ANY of its addresses is outside the policy (a name cannot smuggle an
 * internal address next to a public one), and returns the address the caller must connect to.
 * Connect to that exact address (or use {@link lookup}): resolving the name a second time would
 * reopen DNS rebinding. No memo: every call resolves again (the OS resolver caches).
 */
export class EgressGuard {
  constructor(
    private readonly policy: AddressPolicy,
    private readonly resolver: Resolver = systemResolver,
  ) {}

  /** The allowed, pinned address of `host` (a name or an IP literal, `[v6]` brackets allowed); throws {@link EgressRefusal}. */
  async resolveAllowed(host: string): Promise<PinnedAddress> {
    return (await this.resolveAll(host))[0];
  }

  /** Every address of `host`, all allowed by the policy (first = preferred); throws {@link EgressRefusal}. */
  async resolveAll(host: string): Promise<PinnedAddress[]> {
    const h = host.toLowerCase();
    const literal = parseIpLiteral(h);
    let addresses: string[];
    let named = false;
    if (literal) {
      addresses = [literal.toString()];
    } else if (isLocalhostName(h)) {
      addresses = ['127.0.0.1', '::1'];
    } else {
      named = true;
      const name = h.replace(/\.+$/, '');
      try {
        addresses = await this.resolver(name);
      } catch (e) {
        const code = (e as { code?: string }).code ?? 'lookup failed';
        throw new EgressRefusal(host, `DNS: ${code}`, `DNS: ${code}`, true, code);
      }
      if (addresses.length === 0)
        throw new EgressRefusal(host, 'DNS: no addresses', 'DNS: no addresses', true, 'ENODATA');
    }
    const pinned: PinnedAddress[] = [];
    for (const raw of addresses) {
      const ip = parseIpLiteral(raw);
      const refusal = ip ? refusalOf(ip, this.policy) : 'invalid';
      if (refusal || !ip) {
        // The address in brackets only where it is not what was written (a name, `[::1]`, `0x7f.1`).
        const detail = raw === h ? `${h} is ${refusal}` : `${h} is ${refusal} (${raw})`;
        const plain = named
          ? 'it does not resolve to a public internet address'
          : `it is ${describeRange(refusal ?? 'invalid')}`;
        throw new EgressRefusal(
          host,
          named ? `${h} does not resolve to a public address` : detail,
          detail,
          false,
          undefined,
          plain,
        );
      }
      const address = ip.toString();
      pinned.push({ address, family: isIP(address) === 6 ? 6 : 4 });
    }
    return pinned;
  }

  /**
   * A `dns.lookup`-compatible function (for `http.request({lookup})`, `net.connect({lookup})`,
   * undici's `connect.lookup`) that answers only allowed addresses and errors with the refusal
   * otherwise (`err.code` = 'EGRESS_REFUSED', or the DNS code when the name does not resolve).
   */
  readonly lookup = (
    hostname: string,
    options: { all?: boolean; family?: number | string } | number | ((...a: unknown[]) => void),
    callback?: (err: NodeJS.ErrnoException | null, address?: string | LookupAddress[], family?: number) => void,
  ): void => {
    const cb = (typeof options === 'function' ? options : callback) as NonNullable<typeof callback>;
    const opts = typeof options === 'object' ? options : {};
    this.resolveAll(hostname).then(
      (all) => {
        const family =
          opts.family === 4 || opts.family === 'IPv4' ? 4 : opts.family === 6 || opts.family === 'IPv6' ? 6 : 0;
        const usable = family ? all.filter((a) => a.family === family) : all;
        if (usable.length === 0) {
          cb(Object.assign(new Error(`${hostname}: no allowed IPv${family} address`), { code: 'ENOTFOUND' }));
          return;
        }
        if (opts.all) cb(null, usable);
        else cb(null, usable[0].address, usable[0].family);
      },
      (e: unknown) => {
        const r = e as EgressRefusal;
        cb(
          Object.assign(new Error(r.message), {
            code: r.unresolvable ? (r.dnsCode ?? 'ENOTFOUND') : 'EGRESS_REFUSED',
            refusal: r,
          }),
        );
      },
    );
  };
}
