import { lookup } from 'node:dns/promises'
import { BlockList, isIP, type LookupFunction } from 'node:net'
import { Agent, buildConnector, fetch as undiciFetch } from 'undici'
import type { LinkPolicyState } from '#shared/ipc/profiles'

/** What an admin may set in settings.json (`linkPolicy`) or in the Access panel. */
export type LinkPolicySettings = LinkPolicyState

export const DEFAULT_LINK_POLICY: LinkPolicySettings = {
  allowHosts: [],
  denyHosts: [],
  privateHosts: [],
}

/** Which links the citation checker may fetch, and a fetch that keeps to that. */
export interface LinkPolicy {
  /** Why a link is not fetched; undefined when it may be. */
  check(url: URL): Promise<string | undefined>
  /**
   * A fetch that decides the address it connects to, as it connects: a name that answers
   * differently after {@link check} (DNS rebinding) is refused with a {@link LinkRefused}.
   */
  fetch: typeof fetch
  /** Closes the connections {@link fetch} keeps open. */
  close(): Promise<void>
}

/** The cause of a fetch the policy refused at connect time. */
export class LinkRefused extends Error {}

export interface LinkPolicyOptions {
  /** Read on every decision, so a changed setting applies to the next check. */
  settings: () => LinkPolicySettings
  /** The console's own listening ports on this machine (e.g. the browser host's). */
  ownPorts: () => Iterable<number>
  /**
   * The host names of the registry's servers (as their URLs write them): their documents may be
   * on this machine or a private network, as the servers are.
   */
  registryHosts: () => Iterable<string>
  /** Every address a host name resolves to; defaults to the system resolver. */
  resolve?: (hostname: string) => Promise<string[]>
}

/**
 * Addresses no citation has a reason to name: link-local ranges, where cloud metadata
 * services answer (169.254.169.254, fd00:ec2::254), and Alibaba's metadata address.
 */
const METADATA = new BlockList()
METADATA.addSubnet('169.254.0.0', 16, 'ipv4')
METADATA.addSubnet('fe80::', 10, 'ipv6')
METADATA.addAddress('fd00:ec2::254', 'ipv6')
METADATA.addAddress('100.100.100.200', 'ipv4')

/** This machine: where the console's own listeners are reachable. */
const THIS_MACHINE = new BlockList()
THIS_MACHINE.addSubnet('127.0.0.0', 8, 'ipv4')
THIS_MACHINE.addSubnet('0.0.0.0', 8, 'ipv4')
THIS_MACHINE.addAddress('::1', 'ipv6')
THIS_MACHINE.addAddress('::', 'ipv6')

/**
 * Loopback and private networks, as IPv4 ranges: refused unless the admin allows the host. Also
 * checked in their IPv4-mapped (`::ffff:10.0.0.1`, which BlockList maps itself) and NAT64
 * (`64:ff9b::10.0.0.1`) forms.
 */
const LOOPBACK_V4: [string, number][] = [
  ['127.0.0.0', 8],
  ['0.0.0.0', 8],
]
const PRIVATE_V4: [string, number][] = [
  ['10.0.0.0', 8],
  ['172.16.0.0', 12],
  ['192.168.0.0', 16],
  ['100.64.0.0', 10], // carrier-grade NAT, also used for internal networks
]

function rangesOf(v4: [string, number][], v6: [string, number][]): BlockList {
  const list = new BlockList()
  for (const [address, bits] of v4) {
    list.addSubnet(address, bits, 'ipv4')
    list.addSubnet(`64:ff9b::${address}`, 96 + bits, 'ipv6')
  }
  for (const [address, bits] of v6) list.addSubnet(address, bits, 'ipv6')
  return list
}

const LOOPBACK = rangesOf(LOOPBACK_V4, [
  ['::1', 128],
  ['::', 128],
])
/** RFC 1918, carrier-grade NAT and IPv6 unique local addresses (`fc00::/7`). */
const PRIVATE_NETWORKS = rangesOf(PRIVATE_V4, [['fc00::', 7]])

const family = (ip: string): 'ipv4' | 'ipv6' => (isIP(ip) === 6 ? 'ipv6' : 'ipv4')

async function systemResolve(hostname: string): Promise<string[]> {
  return (await lookup(hostname, { all: true, verbatim: true })).map((a) => a.address)
}

/** `example.com` covers `example.com` and `docs.example.com`. */
function hostMatches(hostname: string, rule: string): boolean {
  const name = rule.trim().toLowerCase().replace(/\.$/, '')
  return name !== '' && (hostname === name || hostname.endsWith(`.${name}`))
}

/** `10.0.0.0/8`, `fd00::/8` or a single address, as a block list; null when not one. */
function addressRule(rule: string): BlockList | null {
  const [address = '', bits] = rule
    .trim()
    .replace(/^\[|\]$/g, '')
    .split('/')
  const kind = isIP(address)
  if (kind === 0) return null
  const list = new BlockList()
  const prefix = bits === undefined ? undefined : Number(bits)
  if (prefix === undefined) list.addAddress(address, family(address))
  else if (Number.isInteger(prefix) && prefix >= 0 && prefix <= (kind === 6 ? 128 : 32))
    list.addSubnet(address, prefix, family(address))
  else return null
  return list
}

/** A registry server's host name and a link's, as URLs write them (`[::1]` brackets aside). */
const sameHost = (a: string, b: string): boolean =>
  a.toLowerCase().replace(/^\[|\]$/g, '') === b.toLowerCase().replace(/^\[|\]$/g, '')

function effectivePort(url: URL): number {
  if (url.port) return Number(url.port)
  return url.protocol === 'https:' ? 443 : 80
}

/**
 * The citation checker's address policy: any public http(s) host a user could open, except the
 * console's own ports on this machine, link-local and cloud metadata addresses, and whatever
 * `linkPolicy` in settings denies (or leaves out of its allow list). This machine and private
 * networks are refused too, unless the host is one of the registry's servers' or `privateHosts`
 * names it: a citation must not make the console probe the admin's own network. Host names are
 * resolved and every address they name is decided, so a name cannot smuggle in a refused address.
 */
export function createLinkPolicy(options: LinkPolicyOptions): LinkPolicy {
  const resolve = options.resolve ?? systemResolve
  /** Whether a link to `hostname` may reach `address` on this machine or a private network. */
  const privateAllowed = (hostname: string, address: string): boolean => {
    const { privateHosts } = options.settings()
    const kind = family(address)
    if (privateHosts.some((rule) => addressRule(rule)?.check(address, kind))) return true
    if (privateHosts.some((rule) => hostMatches(hostname, rule))) return true
    return [...options.registryHosts()].some((host) => sameHost(host, hostname))
  }
  /** Why one address is refused, for a link to `hostname` on `port` (`host` in messages). */
  const refusal = (
    address: string,
    port: number,
    host: string,
    hostname: string,
  ): string | undefined => {
    const settings = options.settings()
    const kind = family(address)
    if (METADATA.check(address, kind)) return `${address} is a link-local or cloud metadata address`
    const range = settings.denyHosts.findIndex((rule) => addressRule(rule)?.check(address, kind))
    if (range >= 0) return `${address} is denied by the link policy (${settings.denyHosts[range]})`
    if (THIS_MACHINE.check(address, kind) && new Set(options.ownPorts()).has(port)) {
      return `${host} is the console's own port`
    }
    const loopback = LOOPBACK.check(address, kind)
    if (!loopback && !PRIVATE_NETWORKS.check(address, kind)) return undefined
    if (privateAllowed(hostname, address)) return undefined
    const named = isIP(hostname) ? `${address} is` : `${hostname} is ${address},`
    return loopback
      ? `${named} a loopback address (this machine): links to this machine are not fetched unless a registry server runs on that host or the link policy's privateHosts names it`
      : `${named} a private network address: links into private networks are not fetched unless a registry server runs on that host or the link policy's privateHosts names it`
  }
  const check = async (url: URL): Promise<string | undefined> => {
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      return `${url.protocol.replace(/:$/, '')}: links are not fetched, only http(s)`
    }
    const settings = options.settings()
    const hostname = url.hostname.toLowerCase().replace(/^\[|\]$/g, '')
    const denied = settings.denyHosts.find((rule) => hostMatches(hostname, rule))
    if (denied !== undefined) return `${hostname} is denied by the link policy (${denied})`
    if (
      settings.allowHosts.length > 0 &&
      !settings.allowHosts.some((rule) => hostMatches(hostname, rule))
    ) {
      return `${hostname} is not in the link policy's allowed hosts`
    }
    let addresses: string[]
    try {
      addresses = isIP(hostname) ? [hostname] : await resolve(hostname)
    } catch {
      // Unresolvable: the fetch itself reports it as unreachable.
      return undefined
    }
    for (const address of addresses) {
      const refused = refusal(address, effectivePort(url), url.host, hostname)
      if (refused) return refused
    }
    return undefined
  }
  const pinned = pinnedFetch(resolve, refusal)
  return { check, fetch: pinned.fetch, close: () => pinned.agent.close() }
}

/**
 * A fetch whose every connection resolves the name once, decides each address it got, and
 * connects only to those addresses (TLS still verifies the name), so nothing is resolved twice.
 */
function pinnedFetch(
  resolve: (hostname: string) => Promise<string[]>,
  refusal: (address: string, port: number, host: string, hostname: string) => string | undefined,
): { fetch: typeof fetch; agent: Agent } {
  const agent = new Agent({
    connect: (opts, callback) => {
      const hostname = opts.hostname.replace(/^\[|\]$/g, '')
      const port = Number(opts.port) || (opts.protocol === 'https:' ? 443 : 80)
      const host = opts.host ?? `${hostname}:${port}`
      const addresses = isIP(hostname) ? Promise.resolve([hostname]) : resolve(hostname)
      addresses.then(
        (found) => {
          for (const address of found) {
            const refused = refusal(address, port, host, hostname.toLowerCase())
            if (refused) return callback(new LinkRefused(refused), null)
          }
          if (found.length === 0) return callback(new Error(`${hostname}: no address`), null)
          // Node picks among the decided addresses (IPv6 or IPv4, whichever answers).
          buildConnector({ lookup: decided(found) })(opts, callback)
        },
        (error: unknown) =>
          callback(error instanceof Error ? error : new Error(String(error)), null),
      )
    },
  })
  // undici's own fetch, so the dispatcher and the fetch come from one version.
  const viaAgent = ((input: URL, init: RequestInit) =>
    undiciFetch(input, { ...(init as object), dispatcher: agent })) as unknown as typeof fetch
  return { fetch: viaAgent, agent }
}

/** A `lookup` for `net.connect` that answers with these addresses only. */
function decided(addresses: string[]): LookupFunction {
  const all = addresses.map((address) => ({ address, family: isIP(address) }))
  return ((_hostname, options, done) => {
    if (options.all) done(null, all)
    else done(null, all[0]!.address, all[0]!.family)
  }) as LookupFunction
}
