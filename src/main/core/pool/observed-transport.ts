import type { Transport, TransportSendOptions } from '@modelcontextprotocol/sdk/shared/transport.js'
import type { JSONRPCMessage, MessageExtraInfo } from '@modelcontextprotocol/sdk/types.js'
import type { CallTracker, RpcErrorPayload } from './call-context'
import type { ProtocolLog } from './protocol-log'

/**
 * Stands between the SDK Client and the real transport: binds every outgoing request id to the
 * pool call that sent it, marks calls that the server answered with a JSON-RPC error (so the
 * error is known to come from the server), and can make the Client skip the `initialize`
 * handshake for servers that refuse it (the Client skips it when a transport already has a
 * session id). Every message both ways goes to the server's protocol log, when it has one.
 */
export class ObservedTransport implements Transport {
  onclose?: () => void
  onerror?: (error: Error) => void
  onmessage?: (message: JSONRPCMessage, extra?: MessageExtraInfo) => void

  constructor(
    readonly inner: Transport,
    private readonly tracker: CallTracker,
    private readonly skipHandshake: boolean,
    private readonly protocol?: ProtocolLog,
  ) {}

  get sessionId(): string | undefined {
    return this.inner.sessionId ?? (this.skipHandshake ? '' : undefined)
  }

  /** Whether the server gave this connection a session (streamable HTTP). */
  get hasServerSession(): boolean {
    return this.inner.sessionId !== undefined
  }

  setProtocolVersion(version: string): void {
    this.inner.setProtocolVersion?.(version)
  }

  async start(): Promise<void> {
    this.inner.onmessage = (message, extra) => {
      this.observe(message)
      this.protocol?.in(message)
      this.onmessage?.(message, extra)
    }
    this.inner.onclose = () => this.onclose?.()
    this.inner.onerror = (error) => this.onerror?.(error)
    await this.inner.start()
  }

  send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    const call = this.tracker.sender
    if (call && 'method' in message && 'id' in message) this.tracker.bind(message.id, call)
    // The wire first: the server starts on the request while the console logs it (a transport's
    // send writes synchronously before its first await).
    try {
      return this.inner.send(message, options)
    } finally {
      this.protocol?.out(message, call?.operation)
    }
  }

  close(): Promise<void> {
    return this.inner.close()
  }

  private observe(message: JSONRPCMessage): void {
    if (!('error' in message) || !('id' in message)) return
    const call = this.tracker.get(message.id as string | number | undefined)
    if (call && !call.protocolError) call.serverError = message.error as RpcErrorPayload
  }
}
