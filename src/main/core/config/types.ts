import type { ServerConfig } from '#shared/config/schema'
import type { Diagnostic, RegistrySource } from '#shared/model/registry'

/** The registry the console runs on: every server's effective config, in display order. */
export interface Registry {
  source: RegistrySource
  servers: ServerConfig[]
  /** Hash of each server's effective config, by id; equal hash = nothing to reconnect. */
  hashes: Record<string, string>
  /** Warnings of the last successful load (unknown fields, plaintext-looking secrets, …). */
  warnings: Diagnostic[]
}
