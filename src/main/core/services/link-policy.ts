import { lookup } from 'node:dns/promises'
import { BlockList, isIP, type LookupFunction } from 'node:net'
import { Agent, buildConnector, fetch as undiciFetch } from 'undici'
import type { LinkPolicyState } from '../../../shared/ipc/profiles'

/** What an admin may set in settings.json (`linkPolicy`) or in the Access panel. */
export type LinkPolicySettings = LinkPolicyState

export const DEFAULT_LINK_POLICY: LinkPolicySettings = { allowHosts: [], denyHosts: [] }

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

function effectivePort(url: URL): number {
  if (url.port) return Number(url.port)
  return url.protocol === 'https:' ? 443 : 80
}

/**
 * The citation checker's address policy: any http(s) host a user could open, except the
 * console's own ports on this machine, link-local and cloud metadata addresses, and whatever
 * `linkPolicy` in settings denies (or leaves out of its allow list). Host names are resolved
 * and every address they name is decided, so a name cannot smuggle in a refused address.
 */
export function createLinkPolicy(options: LinkPolicyOptions): LinkPolicy {
  const resolve = options.resolve ?? systemResolve
  /** Why one address (for a link to `port`, named `host` in messages) is refused. */
  const refusal = (address: string, port: number, host: string): string | undefined => {
    const settings = options.settings()
    const kind = family(address)
    if (METADATA.check(address, kind)) return `${address} is a link-local or cloud metadata address`
    const range = settings.denyHosts.findIndex((rule) => addressRule(rule)?.check(address, kind))
    if (range >= 0) return `${address} is denied by the link policy (${settings.denyHosts[range]})`
    if (THIS_MACHINE.check(address, kind) && new Set(options.ownPorts()).has(port)) {
      return `${host} is the console's own port`
    }
    return undefined
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
      const refused = refusal(address, effectivePort(url), url.host)
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
  refusal: (address: string, port: number, host: string) => string | undefined,
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
            const refused = refusal(address, port, host)
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
