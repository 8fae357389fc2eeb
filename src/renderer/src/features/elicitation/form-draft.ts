import { problemOf, type ElicitContent, type ElicitField } from '#shared/model/elicitation'

/** A form as typed: text for text and number fields, the value itself for the rest. */
export type Draft = Record<string, string | boolean | string[]>

/** The draft a form opens with: its defaults, empty elsewhere. */
export function draftOf(fields: readonly ElicitField[]): Draft {
  const draft: Draft = {}
  for (const field of fields) {
    if (field.kind === 'boolean') draft[field.name] = field.default ?? false
    else if (field.kind === 'multi') draft[field.name] = field.default ?? []
    else draft[field.name] = field.default === undefined ? '' : String(field.default)
  }
  return draft
}

/**
 * The answer a draft makes and what is wrong with it, per field. An empty optional field is
 * left out of the answer; an empty required one is a problem.
 */
export function answerOf(
  fields: readonly ElicitField[],
  draft: Draft,
): { content: ElicitContent; problems: Record<string, string> } {
  const content: ElicitContent = {}
  const problems: Record<string, string> = {}
  for (const field of fields) {
    const typed = draft[field.name]
    let value: string | number | boolean | string[] | undefined
    if (field.kind === 'boolean' || field.kind === 'multi') value = typed
    else if (typeof typed === 'string' && typed.trim() !== '') {
      value = field.kind === 'number' ? Number(typed.trim()) : typed
    }
    if (value === undefined) {
      if (field.required) problems[field.name] = 'Required'
      continue
    }
    const problem = problemOf(field, value)
    if (problem) problems[field.name] = problem.charAt(0).toUpperCase() + problem.slice(1)
    else content[field.name] = value
  }
  return { content, problems }
}
