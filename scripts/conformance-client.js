#!/usr/bin/env node
// The client the MCP conformance suite drives: `rag-console --json tools --url <server-url>`
// (or `call` where a scenario needs a tool called), under RAG_CONSOLE_OAUTH_OPENER=fetch so the
// OAuth sign-in runs without a person. The suite appends the server URL and sets
// MCP_CONFORMANCE_SCENARIO; MCP_CONFORMANCE_CONTEXT carries pre-registered client credentials,
// passed on as the server's `--oauth` block with the secret in the environment.
import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const url = process.argv.at(-1)
const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? ''
const context = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT || '{}')

/** The command line for a scenario: which tool to call, if any. */
function command() {
  if (scenario === 'tools_call') {
    return ['call', '--url', url, '--tool', 'add_numbers', '--args', '{"a":5,"b":3}']
  }
  if (scenario === 'sse-retry') return ['call', '--url', url, '--tool', 'test_reconnection']
  // Step-up: the server asks for more scope only when a tool is called.
  if (scenario === 'auth/scope-step-up') return ['call', '--url', url, '--tool', 'test-tool']
  // SEP-1034: the server asks for a form whose fields all have defaults; accept them.
  if (scenario === 'elicitation-sep1034-client-defaults') {
    const tool = ['--tool', 'test_client_elicitation_defaults']
    return ['call', '--url', url, ...tool, '--elicit', 'accept-defaults']
  }
  return ['tools', '--url', url]
}

const oauth = {}
const env = { ...process.env, RAG_CONSOLE_OAUTH_OPENER: 'fetch' }
if (context.client_id) oauth.clientId = context.client_id
if (context.client_secret) {
  env.CONFORMANCE_CLIENT_SECRET = context.client_secret
  oauth.clientSecret = '${env:CONFORMANCE_CLIENT_SECRET}'
}
if (scenario.startsWith('auth/client-credentials')) oauth.grant = 'client_credentials'
if (scenario === 'auth/basic-cimd') {
  oauth.clientMetadataUrl = 'https://conformance-test.local/client-metadata.json'
}
const args = [join(root, 'out/main/cli.js'), '--json', ...command()]
if (Object.keys(oauth).length > 0) args.push('--oauth', JSON.stringify(oauth))

// A private data folder: no settings, registry or keychain entries of the person running it.
const home = mkdtempSync(join(tmpdir(), 'rc-conformance-'))
env.RAG_CONSOLE_HOME = home
delete env.RAG_MCP_CONFIG
const result = spawnSync(process.execPath, args, { stdio: 'inherit', env })
rmSync(home, { recursive: true, force: true })
process.exit(result.status ?? 1)
