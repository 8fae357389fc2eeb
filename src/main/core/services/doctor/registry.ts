import type { DialectId } from '#shared/model/server'
import { GENERIC_CHECKS } from './generic'
import { PROTOCOL_CHECKS } from './protocol'
import { RAG_SEARCH_CHECKS } from './rag-search'
import { RAG_TOOLS_V1_CHECKS } from './rag-tools-v1'
import { RAGBOX_CHECKS } from './ragbox'
import type { DoctorCheck } from './types'
import { VTEX_CHECKS } from './vtex'

/** Each family's own checks; adding a family = one file of checks + one entry here. */
const FAMILY_CHECKS: Record<DialectId, DoctorCheck[]> = {
  'rag-search': RAG_SEARCH_CHECKS,
  'rag-tools-v1': RAG_TOOLS_V1_CHECKS,
  ragbox: RAGBOX_CHECKS,
  vtex: VTEX_CHECKS,
  generic: GENERIC_CHECKS,
}

/** The checks a server of this family gets: the protocol's, then its family's. */
export function checksFor(dialect: DialectId): DoctorCheck[] {
  return [...PROTOCOL_CHECKS, ...FAMILY_CHECKS[dialect]]
}

const ALL_CHECKS = [...PROTOCOL_CHECKS, ...Object.values(FAMILY_CHECKS).flat()]

/** The id of every check Doctor probes (protocol and every family), each once. */
export const CHECK_IDS: readonly string[] = [
  ...new Set(ALL_CHECKS.filter((check) => !check.notProvoked).map((check) => check.id)),
]

/** Checks Doctor names but never provokes (always `not_applicable`, with the reason). */
export const NOT_PROVOKED_IDS: readonly string[] = ALL_CHECKS.filter(
  (check) => check.notProvoked,
).map((check) => check.id)
