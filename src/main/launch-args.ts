import { isAbsolute, resolve } from 'node:path'

/**
 * What a launch asks of the app. A second launch hands it to the running instance (Electron's
 * single-instance `additionalData`), which then focuses its window and, when the registry
 * differs, offers to switch to it.
 */
export interface LaunchRequest {
  /** Absolute path of `--config`, resolved against the folder the launch ran in. */
  configPath?: string
}

/** `--config <file>` or `--config=<file>` as given, if present. */
export function configArgument(argv: readonly string[]): string | undefined {
  const index = argv.indexOf('--config')
  if (index >= 0) return argv[index + 1]
  return argv.find((arg) => arg.startsWith('--config='))?.slice('--config='.length)
}

export function launchRequest(argv: readonly string[], cwd: string): LaunchRequest {
  const config = configArgument(argv)
  return config ? { configPath: resolve(cwd, config) } : {}
}

/**
 * The request a second instance passed, checked: it arrives from another process, so anything
 * but an absolute path string is dropped. Falls back to that launch's argv when Electron
 * delivered no data (older launchers).
 */
export function receivedLaunchRequest(
  data: unknown,
  argv: readonly string[],
  cwd: string,
): LaunchRequest {
  if (typeof data === 'object' && data !== null && 'configPath' in data) {
    const { configPath } = data as { configPath: unknown }
    if (typeof configPath === 'string' && configPath && isAbsolute(configPath)) {
      return { configPath }
    }
    return {}
  }
  return launchRequest(argv, cwd)
}

/** What the running instance does for a second launch: focus, or offer to switch registry. */
export function secondLaunchAction(
  current: string | undefined,
  request: LaunchRequest,
): { kind: 'focus' } | { kind: 'switch'; configPath: string } {
  if (!request.configPath || request.configPath === current) return { kind: 'focus' }
  return { kind: 'switch', configPath: request.configPath }
}
