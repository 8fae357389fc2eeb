import { RRF_K } from '#shared/model/fusion'
import type { FusionMode } from '#shared/model/operations'
import type { Hit } from '#shared/model/rag'
import { formatScore } from './hit-fields'

/** A hit list's score column: its header, the header's tooltip and each row's text. */
export interface ScoreColumn {
  label: string
  title: string
  text: (hit: Hit) => string
}

/** The column a list shows unless told otherwise: the score the server gave. */
export const RAW_SCORE: ScoreColumn = {
  label: 'Score',
  title: 'The score the server gave the hit (– when it gave none)',
  text: (hit) => formatScore(hit.score),
}

const FUSED: Record<FusionMode, string> = {
  rrf: `reciprocal rank fusion: Σ 1 / (${RRF_K} + rank) over the servers that returned the hit`,
  score:
    'best raw score: the highest score any server gave the hit (a distance counts as its negative)',
  minmax: "scores scaled per server: each server's scores to 0..1, the best kept",
}

/** The merged list's score column: the fused score it is ranked by. */
export function fusedColumn(fusion: FusionMode): ScoreColumn {
  return {
    label: 'Fused',
    title: `Fused score (${FUSED[fusion]}); the inspector shows each server's own score`,
    text: (hit) => ('fusedScore' in hit ? (hit.fusedScore as number).toFixed(4) : '–'),
  }
}
