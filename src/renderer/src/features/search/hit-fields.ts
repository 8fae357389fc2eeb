import type { RawPayload } from '#shared/ipc/rag'
import type { MergedHit } from '#shared/model/operations'
import type { Hit } from '#shared/model/rag'
import { prettyJson } from './json-text'

/**
 * What the hit inspector (and a list's score column) says about one hit, worked out from it:
 * its score, its normalized fields in reading order, where a merged hit was found, and the JSON
 * Copy puts on the clipboard.
 */

/** `0.873`, or a dash when the server gave none. */
export const formatScore = (score: number | undefined): string =>
  score === undefined ? '–' : Math.abs(score) >= 100 ? score.toFixed(0) : score.toFixed(3)

export const isMerged = (hit: Hit): hit is MergedHit => 'foundIn' in hit

/** What a hit is called: its title, or its id when it has none. */
export const hitName = (hit: Pick<Hit, 'title' | 'id'>): string => hit.title || hit.id

/** One normalized field: shown as text, or as code (`wrap`: code that breaks anywhere). */
export interface HitField {
  name: string
  text: string
  code?: 'plain' | 'wrap'
}

/** A field with a value; one without (absent or empty) is left out. */
const field = (name: string, text: string | undefined, code?: HitField['code']) =>
  text === undefined || text === '' ? [] : [{ name, text, ...(code ? { code } : {}) }]

/** The normalized fields, in reading order; absent ones are left out. */
export function hitFields(hit: Hit): HitField[] {
  return [
    { name: 'Server', text: hit.server, code: 'plain' },
    ...field('Source', hit.sourceId, 'plain'),
    { name: 'Id', text: hit.id, code: 'plain' },
    ...field(
      'Score',
      hit.score === undefined
        ? undefined
        : `${formatScore(hit.score)}${hit.scoreOrder === 'lower-is-better' ? ' (a distance: lower is better)' : ''}`,
    ),
    ...(isMerged(hit) ? field('Fused', `${hit.fusedScore.toFixed(4)} (rank ${hit.rank})`) : []),
    ...field('URI', hit.uri, 'wrap'),
    ...field('File', hit.fileName && `${hit.fileName}${hit.fileType ? ` (${hit.fileType})` : ''}`),
    ...field('Time', hit.timestamp),
    ...field('Flags', hit.flags.length > 0 ? hit.flags.join(', ') : undefined),
  ]
}

export type Place = MergedHit['foundIn'][number]

/** `server · source · passage id`: where a merged hit was found. */
export const placeName = (place: Place): string =>
  [place.server, place.sourceId, place.hitId].filter(Boolean).join(' · ')

/** `— rank 2, score 0.870`: how a place ranked the hit. */
export const placeRank = (place: Place): string =>
  ` — rank ${place.rank}${place.score !== undefined ? `, score ${formatScore(place.score)}` : ''}`

/** The copies of a merged hit that read like instructions to a model (none for a plain hit). */
export const flaggedPlaces = (hit: Hit): Place[] =>
  isMerged(hit) ? hit.foundIn.filter((place) => place.suspicious) : []

/** The hit as JSON, with the raw reply that carried it while main still holds that. */
export const hitJson = (hit: Hit, payload: RawPayload | undefined): string =>
  prettyJson(payload?.held ? { ...hit, raw: payload.raw } : hit)
