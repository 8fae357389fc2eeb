import { directoryGroups } from '../access'
import type { Doc } from '../data/types'
import { EXPIRED_LEGAL_CAPABILITY_TOKEN, LEGAL_CAPABILITY_TOKEN } from '../keys'
import { resourceVisible, type ResourceDef } from './resources'
import type { SearchArgs, SourceError } from './types'

/** The outcome of checking one call's sources for its user. */
export interface Authorized {
  groups: string[]
  allowed: ResourceDef[]
  errors: SourceError[]
}

function capabilityError(source: string, token: string | undefined): SourceError {
  if (!token) {
    return {
      code: 'unauthorized_source',
      source,
      message: `"${source}" needs a capability_token argument`,
    }
  }
  if (token === EXPIRED_LEGAL_CAPABILITY_TOKEN) {
    return {
      code: 'token_expired',
      source,
      message: `The capability_token for "${source}" has expired; request a new one`,
    }
  }
  return {
    code: 'unauthorized_source',
    source,
    message: `The capability_token is not valid for "${source}"`,
  }
}

/** The error of an archived source whose search backend is offline (discovery and search). */
export function offlineError(source: string): SourceError {
  return {
    code: 'backend_unavailable',
    source,
    message: `"${source}" is archived; its search backend is offline`,
  }
}

function sourceError(
  resource: ResourceDef | undefined,
  id: string,
  groups: string[],
  args: Pick<SearchArgs, 'username' | 'capability_token'>,
): SourceError | undefined {
  if (!resource) {
    return {
      code: 'invalid_source',
      source: id,
      message: `No source "${id}" on this server; run rag_discover_resources for the valid ids`,
    }
  }
  if (!resourceVisible(resource, groups)) {
    return {
      code: 'unauthorized_source',
      source: id,
      message: `${args.username} may not search "${id}": it is restricted to ${resource.groups.join(', ')}`,
    }
  }
  if (resource.offline) return offlineError(id)
  if (resource.authMode === 'capability' && args.capability_token !== LEGAL_CAPABILITY_TOKEN) {
    return capabilityError(id, args.capability_token)
  }
  return undefined
}

/**
 * Splits the requested sources (default: every source the user may see) into allowed ones and
 * per-source errors, re-checking the user's groups from the directory on every call.
 * Undefined: the user is not in the directory.
 */
export function authorize(
  resources: ResourceDef[],
  args: Pick<SearchArgs, 'username' | 'sources' | 'capability_token'>,
): Authorized | undefined {
  const groups = directoryGroups(args.username)
  if (!groups) return undefined
  const requested = args.sources?.length
    ? args.sources
    : resources
        .filter((resource) => resourceVisible(resource, groups))
        .map((resource) => resource.id)
  const allowed: ResourceDef[] = []
  const errors: SourceError[] = []
  for (const id of requested) {
    const resource = resources.find((candidate) => candidate.id === id)
    const error = sourceError(resource, id, groups, args)
    if (error) errors.push(error)
    else if (resource) allowed.push(resource)
  }
  return { groups, allowed, errors }
}

/** Whether a document passes the spec 002 search filters. */
export function matchesFilters(doc: Doc, filters: SearchArgs['filters']): boolean {
  if (!filters) return true
  if (filters.date_from && doc.updated < filters.date_from) return false
  if (filters.date_to && doc.updated.slice(0, 10) > filters.date_to) return false
  if (filters.tags?.length && !filters.tags.some((tag) => doc.tags.includes(tag.toLowerCase()))) {
    return false
  }
  if (filters.owners?.length) {
    const owners = filters.owners.map((owner) => owner.toLowerCase())
    return owners.includes(doc.owner.toLowerCase()) || owners.includes(doc.author.toLowerCase())
  }
  return true
}
