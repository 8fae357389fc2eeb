import { SOURCE_NAMES } from '../data/corpus'
import type { SourceId } from '../data/types'

/** authMode values of spec 002. */
export type AuthMode = 'username' | 'api_key' | 'bearer' | 'oauth' | 'capability' | 'none'

/** One data source a rag-tools-v1 server exposes. */
export interface ResourceDef {
  id: string
  name: string
  /** Corpus source behind it; none for the offline archive. */
  source?: SourceId
  sourceType: string
  authMode: AuthMode
  /** Groups that may discover and search it. */
  groups: string[]
  defaultSelected: boolean
  /** Answers `backend_unavailable` on every search. */
  offline?: boolean
}

/** Every resource either instance can serve, by id. */
export const RESOURCES: Record<string, ResourceDef> = {
  handbook: {
    id: 'handbook',
    name: SOURCE_NAMES.handbook,
    source: 'handbook',
    sourceType: 'confluence',
    authMode: 'username',
    groups: ['users'],
    defaultSelected: true,
  },
  legal: {
    id: 'legal',
    name: SOURCE_NAMES.legal,
    source: 'legal',
    sourceType: 'sharepoint',
    authMode: 'capability',
    groups: ['legal', 'admin'],
    defaultSelected: false,
  },
  sales: {
    id: 'sales',
    name: SOURCE_NAMES.sales,
    source: 'sales',
    sourceType: 'google-drive',
    authMode: 'username',
    groups: ['sales', 'admin'],
    defaultSelected: true,
  },
  'it-kb': {
    id: 'it-kb',
    name: SOURCE_NAMES['it-kb'],
    source: 'it-kb',
    sourceType: 'servicenow',
    authMode: 'username',
    groups: ['users', 'contractors'],
    defaultSelected: true,
  },
  engineering: {
    id: 'engineering',
    name: SOURCE_NAMES.engineering,
    source: 'engineering',
    sourceType: 'notion',
    authMode: 'username',
    groups: ['engineering', 'admin'],
    defaultSelected: true,
  },
  product: {
    id: 'product',
    name: SOURCE_NAMES.product,
    source: 'product',
    sourceType: 's3',
    authMode: 'none',
    groups: ['users', 'contractors'],
    defaultSelected: false,
  },
  'legacy-wiki': {
    id: 'legacy-wiki',
    name: 'Legacy Wiki (archived)',
    sourceType: 'mediawiki',
    authMode: 'username',
    groups: ['users'],
    defaultSelected: false,
    offline: true,
  },
}

/** Resources of the stdio instance ("Company docs"). */
export const STDIO_RESOURCES = ['handbook', 'legal', 'sales']
/** Resources of the SSE instance ("Engineering wiki"). */
export const SSE_RESOURCES = ['it-kb', 'engineering', 'product', 'legacy-wiki']

/** Whether a user with these groups may discover and search the resource. */
export function resourceVisible(resource: ResourceDef, groups: readonly string[]): boolean {
  return resource.groups.some((group) => groups.includes(group))
}
