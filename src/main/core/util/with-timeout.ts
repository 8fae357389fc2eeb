import { ConsoleError } from '#shared/errors'

/** Rejects with a `timeout` ConsoleError when the promise has not settled in time. */
export function withTimeout<T>(
  promise: Promise<T>,
  ms: number,
  what = 'the operation',
): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(
      () =>
        reject(
          new ConsoleError({
            code: 'timeout',
            origin: 'local',
            message: `${what} took longer than ${ms} ms`,
          }),
        ),
      ms,
    )
  })
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer))
}
