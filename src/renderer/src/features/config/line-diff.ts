/**
 * Line diff for previews of a save and for comparing two versions of the file (Myers'
 * O((N+M)·D) algorithm on the lines between the common prefix and suffix).
 */

export type DiffOp =
  | { kind: 'equal'; oldNo: number; newNo: number; text: string }
  | { kind: 'del'; oldNo: number; text: string }
  | { kind: 'add'; newNo: number; text: string }

/** Beyond this many edits the diff shows "everything replaced" instead of searching on. */
const MAX_EDITS = 4000

export const splitLines = (text: string): string[] =>
  text === '' ? [] : text.replace(/\r\n/g, '\n').replace(/\n$/, '').split('\n')

/** Line-by-line difference from `before` to `after`; line numbers are 1-based. */
export function diffLines(before: string, after: string): DiffOp[] {
  const a = splitLines(before)
  const b = splitLines(after)
  let start = 0
  while (start < a.length && start < b.length && a[start] === b[start]) start++
  let endA = a.length
  let endB = b.length
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--
    endB--
  }
  const ops: DiffOp[] = []
  for (let i = 0; i < start; i++)
    ops.push({ kind: 'equal', oldNo: i + 1, newNo: i + 1, text: a[i]! })
  const middle =
    myers(a.slice(start, endA), b.slice(start, endB), start) ?? replaceAll(a, b, start, endA, endB)
  ops.push(...middle)
  for (let i = 0; i < a.length - endA; i++) {
    ops.push({ kind: 'equal', oldNo: endA + i + 1, newNo: endB + i + 1, text: a[endA + i]! })
  }
  return ops
}

function replaceAll(a: string[], b: string[], start: number, endA: number, endB: number): DiffOp[] {
  const ops: DiffOp[] = []
  for (let i = start; i < endA; i++) ops.push({ kind: 'del', oldNo: i + 1, text: a[i]! })
  for (let j = start; j < endB; j++) ops.push({ kind: 'add', newNo: j + 1, text: b[j]! })
  return ops
}

/** Myers' shortest edit script; `shift` offsets the line numbers. Null past MAX_EDITS. */
function myers(a: string[], b: string[], shift: number): DiffOp[] | null {
  const n = a.length
  const m = b.length
  const max = n + m
  const offset = max + 1
  const v = new Int32Array(2 * max + 3)
  // trace[d] holds v[k] for k in [-d-1, d+1] as it was before step d.
  const trace: Int32Array[] = []
  let found = false
  for (let d = 0; d <= Math.min(max, MAX_EDITS) && !found; d++) {
    trace.push(v.slice(offset - d - 1, offset + d + 2))
    for (let k = -d; k <= d; k += 2) {
      let x =
        k === -d || (k !== d && v[offset + k - 1]! < v[offset + k + 1]!)
          ? v[offset + k + 1]!
          : v[offset + k - 1]! + 1
      let y = x - k
      while (x < n && y < m && a[x] === b[y]) {
        x++
        y++
      }
      v[offset + k] = x
      if (x >= n && y >= m) {
        found = true
        break
      }
    }
  }
  if (!found) return null

  const reversed: DiffOp[] = []
  let x = n
  let y = m
  for (let d = trace.length - 1; d >= 0; d--) {
    const at = (k: number): number => trace[d]![k + d + 1]!
    const k = x - y
    const prevK = k === -d || (k !== d && at(k - 1) < at(k + 1)) ? k + 1 : k - 1
    const prevX = d === 0 ? 0 : at(prevK)
    const prevY = d === 0 ? 0 : prevX - prevK
    while (x > prevX && y > prevY) {
      reversed.push({ kind: 'equal', oldNo: shift + x, newNo: shift + y, text: a[x - 1]! })
      x--
      y--
    }
    if (d > 0) {
      if (x === prevX) reversed.push({ kind: 'add', newNo: shift + y, text: b[y - 1]! })
      else reversed.push({ kind: 'del', oldNo: shift + x, text: a[x - 1]! })
    }
    x = prevX
    y = prevY
  }
  return reversed.reverse()
}

/** Added and removed line counts. */
export function diffStats(ops: readonly DiffOp[]): { added: number; removed: number } {
  let added = 0
  let removed = 0
  for (const op of ops) {
    if (op.kind === 'add') added++
    else if (op.kind === 'del') removed++
  }
  return { added, removed }
}

/** A run of changes with `context` unchanged lines around it. */
export interface Hunk {
  oldStart: number
  newStart: number
  ops: DiffOp[]
}

/** Groups changes into hunks, as a unified diff shows them. */
export function hunks(ops: readonly DiffOp[], context = 3): Hunk[] {
  const changed = ops.map((op, index) => (op.kind === 'equal' ? -1 : index)).filter((i) => i >= 0)
  const result: Hunk[] = []
  let current: { from: number; to: number } | null = null
  const flush = (): void => {
    if (!current) return
    const slice = ops.slice(current.from, current.to + 1)
    const first = slice[0]!
    result.push({
      oldStart: first.kind === 'add' ? oldBefore(ops, current.from) + 1 : first.oldNo,
      newStart: first.kind === 'del' ? newBefore(ops, current.from) + 1 : first.newNo,
      ops: slice,
    })
  }
  for (const index of changed) {
    const from = Math.max(0, index - context)
    const to = Math.min(ops.length - 1, index + context)
    if (current && from <= current.to + 1) current.to = to
    else {
      flush()
      current = { from, to }
    }
  }
  flush()
  return result
}

function oldBefore(ops: readonly DiffOp[], index: number): number {
  for (let i = index - 1; i >= 0; i--) {
    const op = ops[i]!
    if (op.kind !== 'add') return op.oldNo
  }
  return 0
}

function newBefore(ops: readonly DiffOp[], index: number): number {
  for (let i = index - 1; i >= 0; i--) {
    const op = ops[i]!
    if (op.kind !== 'del') return op.newNo
  }
  return 0
}

/** One row of a side-by-side view: the old line on the left, the new on the right. */
export interface SideRow {
  left?: { no: number; text: string; changed: boolean }
  right?: { no: number; text: string; changed: boolean }
}

/** Pairs deletions with the additions that follow them, so replaced lines face each other. */
export function sideBySide(ops: readonly DiffOp[]): SideRow[] {
  const rows: SideRow[] = []
  let i = 0
  while (i < ops.length) {
    const op = ops[i]!
    if (op.kind === 'equal') {
      rows.push({
        left: { no: op.oldNo, text: op.text, changed: false },
        right: { no: op.newNo, text: op.text, changed: false },
      })
      i++
      continue
    }
    const dels: Extract<DiffOp, { kind: 'del' }>[] = []
    const adds: Extract<DiffOp, { kind: 'add' }>[] = []
    while (i < ops.length && ops[i]!.kind === 'del') dels.push(ops[i++] as (typeof dels)[number])
    while (i < ops.length && ops[i]!.kind === 'add') adds.push(ops[i++] as (typeof adds)[number])
    for (let r = 0; r < Math.max(dels.length, adds.length); r++) {
      const del = dels[r]
      const add = adds[r]
      rows.push({
        ...(del ? { left: { no: del.oldNo, text: del.text, changed: true } } : {}),
        ...(add ? { right: { no: add.newNo, text: add.text, changed: true } } : {}),
      })
    }
  }
  return rows
}
