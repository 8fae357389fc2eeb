import type { Hit } from '#shared/model/rag'

/** Identifies a hit row in the panel (a server's hit id; ids repeat across servers). */
export const hitKey = (hit: Pick<Hit, 'server' | 'id'>): string => `${hit.server}\u0000${hit.id}`
