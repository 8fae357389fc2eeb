/**
 * The indices of values no line reaches: a value between gaps (or at an end, next to a gap).
 * A line joins neighbours only, so a slice with calls amid quiet ones would draw nothing.
 */
export function lonePoints(values: ArrayLike<number | null | undefined>): number[] {
  const lone: number[] = []
  for (let i = 0; i < values.length; i++) {
    if (values[i] == null) continue
    if (values[i - 1] == null && values[i + 1] == null) lone.push(i)
  }
  return lone
}
