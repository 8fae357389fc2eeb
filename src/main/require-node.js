// The first thing every entry point runs (the CLI, the browser host, `npm start`,
// `npm run start:browser`): the bundles and their dependencies need Node.js 22.12 (the
// `engines` of package.json), and an older Node dies inside them with a stack trace instead
// of a sentence. Plain JavaScript that any Node can parse, imported before anything else loads.

/** The oldest Node.js the console runs on. */
export const MIN_NODE = '22.12.0'

/** Whether `version` ("20.20.2", "v22.12.0") is older than {@link MIN_NODE}. */
export function tooOld(version) {
  const have = String(version).replace(/^v/, '').split('.').map(Number)
  const need = MIN_NODE.split('.').map(Number)
  for (let i = 0; i < need.length; i += 1) {
    const part = have[i] || 0
    if (part !== need[i]) return part < need[i]
  }
  return false
}

/** On a Node older than {@link MIN_NODE}: one sentence on stderr saying what to do, exit 2. */
export function requireNode(program) {
  if (!tooOld(process.versions.node)) return
  process.stderr.write(
    `${program} needs Node.js 22.12 or newer and this is Node.js ${process.versions.node}: ` +
      'install Node.js 22 LTS from https://nodejs.org/en/download (or `nvm install 22`), ' +
      'then run it again with that node.\n',
  )
  process.exit(2)
}
