import { describe, expect, it } from 'vitest'
import { createLinkPolicy, DEFAULT_LINK_POLICY, type LinkPolicySettings } from './link-policy'

/** Decides only: nothing here is ever requested. */
function policy(
  settings: Partial<LinkPolicySettings> = {},
  ownPorts: number[] = [],
  registryHosts: string[] = [],
) {
  const names: Record<string, string[]> = {
    'docs.example.com': ['93.184.215.14'],
    'metadata.example.internal': ['169.254.169.254'],
    'sneaky.example.com': ['93.184.215.14', 'fd00:ec2::254'],
    'me.example.com': ['127.0.0.1'],
    localhost: ['127.0.0.1', '::1'],
    'wiki.corp.example': ['10.20.30.40'],
    'half.example.com': ['93.184.215.14', '192.168.0.10'],
    'rag.corp.example': ['10.20.30.41'],
  }
  return createLinkPolicy({
    settings: () => ({ ...DEFAULT_LINK_POLICY, ...settings }),
    ownPorts: () => ownPorts,
    registryHosts: () => registryHosts,
    resolve: async (host) => {
      const found = names[host]
      if (!found) throw new Error(`ENOTFOUND ${host}`)
      return found
    },
  })
}
const decide = (url: string, ...args: Parameters<typeof policy>) =>
  policy(...args).check(new URL(url))

describe('link policy', () => {
  it('allows any public http(s) host a user could open by default', async () => {
    expect(await decide('https://docs.example.com/a?sig=1')).toBeUndefined()
    for (const url of [
      'http://172.32.0.1/',
      'http://100.128.0.1/',
      'http://192.169.0.1/',
      'http://[2606:4700::1]/',
      'http://[64:ff9b::8.8.8.8]/',
    ]) {
      expect(await decide(url), url).toBeUndefined()
    }
  })

  it('refuses this machine and private networks by default, however written, and says why', async () => {
    const loopback = [
      'http://127.0.0.1:8080/doc',
      'http://127.5.5.5/',
      'http://0x7f.1/',
      'http://[::1]/',
      'http://[::ffff:127.0.0.1]/',
      'http://0.0.0.0/',
      'http://0/',
      'http://me.example.com/',
    ]
    for (const url of loopback) {
      expect(await decide(url), url).toMatch(
        /a loopback address \(this machine\): .* registry server .* privateHosts/,
      )
    }
    const privateNets = [
      'http://10.1.2.3/',
      'http://172.16.5.4/',
      'http://172.31.255.255/',
      'http://192.168.1.1/',
      'http://100.64.0.1/',
      'http://[fc00::1]/',
      'http://[fd12:3456::1]/',
      'http://[::ffff:10.0.0.1]/',
      'http://[64:ff9b::10.0.0.1]/',
      'http://wiki.corp.example/',
      'https://half.example.com/',
    ]
    for (const url of privateNets) {
      expect(await decide(url), url).toMatch(/a private network address: .* privateHosts/)
    }
    expect(await decide('http://wiki.corp.example/')).toBe(
      "wiki.corp.example is 10.20.30.40, a private network address: links into private networks are not fetched unless a registry server runs on that host or the link policy's privateHosts names it",
    )
  })

  it('fetches private hosts the admin allows, by name, address or range, never metadata or its own port', async () => {
    const privateHosts = ['wiki.corp.example', '192.168.0.0/16', '127.0.0.1', '169.254.0.0/16']
    expect(await decide('http://wiki.corp.example/page', { privateHosts })).toBeUndefined()
    expect(await decide('http://192.168.7.7/', { privateHosts })).toBeUndefined()
    expect(await decide('https://half.example.com/', { privateHosts })).toBeUndefined()
    expect(await decide('http://127.0.0.1:8080/', { privateHosts })).toBeUndefined()
    expect(await decide('http://10.1.2.3/', { privateHosts })).toMatch(/private network/)
    expect(await decide('http://169.254.169.254/', { privateHosts })).toMatch(/metadata/)
    expect(await decide('http://127.0.0.1:4100/', { privateHosts }, [4100])).toMatch(/own port/)
  })

  it("fetches the hosts of the registry's own servers, which serve their documents", async () => {
    const registry = ['127.0.0.1', 'rag.corp.example']
    expect(await decide('http://127.0.0.1:47310/docs/a', {}, [], registry)).toBeUndefined()
    expect(await decide('http://rag.corp.example/docs/a', {}, [], registry)).toBeUndefined()
    expect(await decide('http://localhost:47310/docs/a', {}, [], registry)).toMatch(/loopback/)
    expect(await decide('http://wiki.corp.example/', {}, [], registry)).toMatch(/private network/)
    expect(await decide('http://127.0.0.1:4100/', {}, [4100], registry)).toMatch(/own port/)
  })

  it('refuses link-local and cloud metadata addresses, however they are written', async () => {
    for (const url of [
      'http://169.254.169.254/latest/meta-data/',
      'http://169.254.1.2:8080/',
      'http://2852039166/',
      'http://[::ffff:169.254.169.254]/',
      'http://[fd00:ec2::254]/',
      'http://[fe80::1]/',
      'http://100.100.100.200/',
    ]) {
      expect(await decide(url), url).toMatch(/link-local or cloud metadata address/)
    }
  })

  it('refuses a host name that resolves to a refused address, on any of its addresses', async () => {
    expect(await decide('http://metadata.example.internal/')).toBe(
      '169.254.169.254 is a link-local or cloud metadata address',
    )
    expect(await decide('https://sneaky.example.com/')).toMatch(/fd00:ec2::254/)
  })

  it("refuses the console's own ports on this machine, by any loopback name", async () => {
    const own = [4100]
    expect(await decide('http://127.0.0.1:4100/#token=x', {}, own)).toBe(
      "127.0.0.1:4100 is the console's own port",
    )
    expect(await decide('http://127.9.9.9:4100/', {}, own)).toMatch(/own port/)
    expect(await decide('http://[::1]:4100/', {}, own)).toMatch(/own port/)
    expect(await decide('http://0.0.0.0:4100/', {}, own)).toMatch(/own port/)
    expect(await decide('http://me.example.com:4100/', {}, own)).toMatch(/own port/)
    expect(await decide('http://127.0.0.1:4101/', { privateHosts: ['127.0.0.1'] }, own)).toBe(
      undefined,
    )
  })

  it('resolves real names with the system resolver (localhost only)', async () => {
    const real = createLinkPolicy({
      settings: () => ({ ...DEFAULT_LINK_POLICY, privateHosts: ['localhost'] }),
      ownPorts: () => [4100],
      registryHosts: () => [],
    })
    expect(await real.check(new URL('http://localhost:4100/'))).toMatch(/own port/)
    expect(await real.check(new URL('http://localhost:4101/'))).toBeUndefined()
  })

  it('applies the deny list to host names, their subdomains, addresses and ranges', async () => {
    const denyHosts = ['example.com', '10.0.0.0/8', '192.0.2.7']
    expect(await decide('https://docs.example.com/', { denyHosts })).toBe(
      'docs.example.com is denied by the link policy (example.com)',
    )
    expect(await decide('http://10.1.2.3/', { denyHosts })).toBe(
      '10.1.2.3 is denied by the link policy (10.0.0.0/8)',
    )
    expect(await decide('http://192.0.2.7/', { denyHosts })).toMatch(/denied/)
    expect(await decide('http://192.0.2.8/', { denyHosts })).toBeUndefined()
  })

  it('fetches only allowed hosts when an allow list is set', async () => {
    const allowHosts = ['example.com']
    expect(await decide('https://docs.example.com/', { allowHosts })).toBeUndefined()
    expect(await decide('https://example.org/', { allowHosts })).toBe(
      "example.org is not in the link policy's allowed hosts",
    )
  })

  it('never allows a non-http scheme', async () => {
    expect(await decide('file:///etc/passwd')).toMatch(/^file: links are not fetched/)
  })

  it('leaves an unresolvable name to the fetch, which reports it unreachable', async () => {
    expect(await decide('https://nowhere.invalid/')).toBeUndefined()
  })
})
