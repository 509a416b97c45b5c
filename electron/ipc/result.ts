/** What every handler answers across IPC: the value, or an error reduced to code and message (never a stack). */
export type IpcResult<T> = { ok: true; value: T } | { ok: false; error: IpcErrorJson }

/** An error as it crosses IPC. */
export interface IpcErrorJson {
  code: IpcErrorCode
  message: string
}

/** Stable codes the renderer can match on. */
export type IpcErrorCode = 'IPC_FORBIDDEN' | 'IPC_INVALID_PAYLOAD' | 'IPC_FAILED'

/** Thrown by handlers and guards; its code and message are what the renderer sees. */
export class IpcError extends Error {
  constructor(
    readonly code: IpcErrorCode,
    message: string,
  ) {
    super(message)
    this.name = 'IpcError'
  }
}

/** Reduces any thrown value to `{code, message}`: stacks and causes stay in the main process. */
export function toIpcErrorJson(err: unknown): IpcErrorJson {
  if (err instanceof IpcError) return { code: err.code, message: err.message }
  return { code: 'IPC_FAILED', message: err instanceof Error ? err.message : String(err) }
}
