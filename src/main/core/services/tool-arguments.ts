import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv'
import addFormats from 'ajv-formats'
import type { ArgumentProblem } from '#shared/ipc/workbench'

/** Compiled input schemas, by their JSON text (tools are listed again after a reconnect). */
const MAX_CACHED = 500

/**
 * Checks tool arguments against the tool's `inputSchema` (JSON Schema, as a server sent it) with
 * Ajv, the validator the MCP SDK itself uses. Lenient about schema dialect quirks (unknown
 * keywords, `$schema` of any draft); a schema that cannot be compiled is reported as a problem
 * instead of throwing.
 */
export class ArgumentValidator {
  private readonly ajv = new Ajv({
    strict: false,
    allErrors: true,
    validateSchema: false,
    validateFormats: true,
  })
  private readonly compiled = new Map<string, ValidateFunction | string>()

  constructor() {
    addFormats(this.ajv)
  }

  /** Problems with `args` for a tool taking `schema`; empty when they fit (or there is no schema). */
  check(schema: unknown, args: Record<string, unknown>): ArgumentProblem[] {
    if (schema === undefined || schema === null) return []
    const validate = this.validator(schema)
    if (typeof validate === 'string') {
      return [{ path: '', message: `the tool's input schema cannot be used: ${validate}` }]
    }
    if (validate(args)) return []
    return (validate.errors ?? []).map(problemOf)
  }

  private validator(schema: unknown): ValidateFunction | string {
    const key = JSON.stringify(schema)
    const known = this.compiled.get(key)
    if (known) return known
    let result: ValidateFunction | string
    try {
      if (typeof schema !== 'object' || Array.isArray(schema)) throw new Error('not an object')
      // `$id`s would clash between servers: compile each schema on its own.
      const { $id: _id, ...rest } = schema as Record<string, unknown>
      result = this.ajv.compile(rest)
    } catch (error) {
      result = error instanceof Error ? error.message : String(error)
    }
    if (this.compiled.size >= MAX_CACHED) this.compiled.clear()
    this.compiled.set(key, result)
    return result
  }
}

function problemOf(error: ErrorObject): ArgumentProblem {
  const params = error.params as Record<string, unknown>
  let path = error.instancePath
  let message = error.message ?? 'is not valid'
  if (error.keyword === 'required' && typeof params.missingProperty === 'string') {
    path = `${path}/${params.missingProperty}`
    message = 'is required'
  } else if (error.keyword === 'additionalProperties') {
    path = `${path}/${String(params.additionalProperty)}`
    message = 'is not a parameter of this tool'
  } else if (error.keyword === 'enum' && Array.isArray(params.allowedValues)) {
    message = `must be one of ${params.allowedValues.map((v) => JSON.stringify(v)).join(', ')}`
  }
  return { path, message }
}
