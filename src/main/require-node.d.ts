/** The oldest Node.js the console runs on. */
export declare const MIN_NODE: string
/** Whether `version` ("20.20.2", "v22.12.0") is older than {@link MIN_NODE}. */
export declare function tooOld(version: string): boolean
/** On a Node older than {@link MIN_NODE}: one sentence on stderr saying what to do, exit 2. */
export declare function requireNode(program: string): void
