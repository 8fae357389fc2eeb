/**
 * Layering of the source tree, checked by `npm run lint` (see docs/architecture.md, "Layers").
 * Every rule holds for the whole tree: no exceptions.
 * @type {import('dependency-cruiser').IConfiguration}
 */

/**
 * Tests and their helpers (src/test/: integration tests, support/ and fixtures/) sit above the
 * layer they test: they build the whole core to drive it.
 */
const tests = '(\\.test\\.tsx?$|^src/test/)'
/** The lower layers of the core: what the services are built from, and their utilities. */
const lowerCore = '^src/main/core/(pool|config|secrets|dialects|auth|util)/'
/** The core's base: config, secrets, utilities, and the modules at its root but core.ts. */
const baseCore = '^src/main/core/((config|secrets|util)/|(?!core\\.ts$)[^/]+$)'

module.exports = {
  forbidden: [
    {
      name: 'no-cycles',
      severity: 'error',
      comment: 'Import circles: move the shared part (usually a type) into a lower module.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'renderer-not-to-main',
      severity: 'error',
      comment: 'The renderer reaches the main process only through window.ragConsole.',
      from: { path: '^src/renderer/' },
      to: { path: '^src/(main|preload|demo)/' },
    },
    {
      name: 'preload-only-contract',
      severity: 'error',
      comment: 'The preload bridges carry the IPC contract (src/shared) and nothing else.',
      from: { path: '^src/preload/' },
      to: { path: '^src/', pathNot: ['^src/shared/', '^src/preload/'] },
    },
    {
      name: 'main-not-to-renderer',
      severity: 'error',
      comment: 'The main process serves the renderer as files; it never imports its code.',
      from: { path: '^src/main/' },
      to: { path: '^src/(renderer|preload)/' },
    },
    {
      name: 'shared-not-to-processes',
      severity: 'error',
      comment: 'src/shared is pure TypeScript used by every process.',
      from: { path: '^src/shared/' },
      to: { path: '^src/(main|renderer|preload|demo)/' },
    },
    {
      name: 'core-not-to-hosts',
      severity: 'error',
      comment:
        'The core runs under plain Node for every host: it never imports one, nor do its tests ' +
        "import the hosts' test helpers.",
      from: { path: '^src/main/core/' },
      to: { path: '^src/(main|test/support/(host|cli))/', pathNot: '^src/main/core/' },
    },
    {
      name: 'base-core-not-to-upper',
      severity: 'error',
      comment:
        'config, secrets, util and the modules at the root of the core (events, log, paths, ' +
        'app-root) are what everything else stands on: they import only each other and src/shared.',
      from: { path: baseCore, pathNot: tests },
      to: { path: '^src/main/core/((pool|auth|dialects|services|monitoring|api)/|core\\.ts$)' },
    },
    {
      name: 'lower-core-not-to-upper',
      severity: 'error',
      comment:
        'pool, config, secrets, dialects and auth are what the services are built from: ' +
        'they never import the services, the IPC handlers or the composition (core.ts).',
      from: { path: lowerCore, pathNot: tests },
      to: { path: '^src/main/core/(services/|api/|monitoring/|core\\.ts$)' },
    },
    {
      name: 'services-not-to-composition',
      severity: 'error',
      comment:
        'The services are composed by core.ts and bound to the contract by api/: ' +
        'they import neither.',
      from: { path: '^src/main/core/(services|monitoring)/', pathNot: tests },
      to: { path: '^src/main/core/(api/|core\\.ts$)' },
    },
    {
      name: 'demo-stands-alone',
      severity: 'error',
      comment: 'The demo servers are stand-alone programs: they share no code with the console.',
      from: { path: '^src/demo/' },
      to: { path: '^src/(main|renderer|preload|shared)/' },
    },
    {
      name: 'console-not-to-demo',
      severity: 'error',
      comment:
        'The console does not depend on the demo servers: the demo bootstrap runs them as a ' +
        'program (demo.js); only tests import them.',
      from: { path: '^src/main/', pathNot: tests },
      to: { path: '^src/demo/' },
    },
    {
      name: 'core-not-to-demo-bootstrap',
      severity: 'error',
      comment:
        'The hosts hand the core their demo bootstrap (CoreOptions.demo): the core, ' +
        'its tests included, never imports it.',
      from: { path: '^src/main/core/' },
      to: { path: '^src/main/demo-bootstrap/' },
    },
    {
      name: 'console-not-to-tests',
      severity: 'error',
      comment:
        'Test helpers and fixtures live in src/test/ (support/, fixtures/); only tests import ' +
        'them, so no build of the console carries them.',
      from: { path: '^src/', pathNot: tests },
      to: { path: '^src/test/' },
    },
  ],
  options: {
    includeOnly: '^src/',
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    // enhanced-resolve reads package.json `imports` (the layers' aliases `#core/…`, `#shared/…`)
    // by itself, so an aliased import is held to every rule above as a relative one is.
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.tsx', '.js', '.json'],
    },
    cache: { folder: 'node_modules/.cache/dependency-cruiser', strategy: 'content' },
  },
}
