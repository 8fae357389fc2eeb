/**
 * Line diff for previews of a save and for comparing two versions of the file: jsdiff's Myers
 * diff over the lines, shaped into numbered operations, hunks and side-by-side rows.
 */
import { diffArrays } from 'diff'

export type DiffOp =
  | { kind: 'equal'; oldNo: number; newNo: number; text: string }
  | { kind: 'del'; oldNo: number; text: string }
  | { kind: 'add'; newNo: number; text: string }

/** Beyond this many edits the diff shows "everything replaced" instead of searching on. */
const MAX_EDITS = 4000

export const splitLines = (text: string): string[] =>
  text === '' ? [] : text.replace(/\r\n/g, '\n').replace(/\n$/, '').split('\n')

interface Run {
  value: string[]
  added?: boolean
  removed?: boolean
}

/** Line-by-line difference from `before` to `after`; line numbers are 1-based. */
export function diffLines(before: string, after: string): DiffOp[] {
  const a = splitLines(before)
  const b = splitLines(after)
  const runs: Run[] = diffArrays(a, b, { maxEditLength: MAX_EDITS }) ?? replaced(a, b)
  const ops: DiffOp[] = []
  let oldNo = 0
  let newNo = 0
  for (const run of runs) {
    for (const text of run.value) {
      if (run.added) ops.push({ kind: 'add', newNo: ++newNo, text })
      else if (run.removed) ops.push({ kind: 'del', oldNo: ++oldNo, text })
      else ops.push({ kind: 'equal', oldNo: ++oldNo, newNo: ++newNo, text })
    }
  }
  return ops
}

/** Past MAX_EDITS: the lines both texts begin and end with stay, everything between is replaced. */
function replaced(a: string[], b: string[]): Run[] {
  let head = 0
  while (head < a.length && head < b.length && a[head] === b[head]) head++
  let tail = 0
  while (
    tail < a.length - head &&
    tail < b.length - head &&
    a[a.length - 1 - tail] === b[b.length - 1 - tail]
  ) {
    tail++
  }
  return [
    { value: a.slice(0, head) },
    { value: a.slice(head, a.length - tail), removed: true },
    { value: b.slice(head, b.length - tail), added: true },
    { value: a.slice(a.length - tail) },
  ]
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
