// autocannon ships no types; this covers only the part of its programmatic API the benchmark uses.
declare module 'autocannon' {
  import type { EventEmitter } from 'node:events'

  namespace autocannon {
    interface Options {
      url: string
      method?: string
      headers?: Record<string, string>
      body?: string
      connections?: number
      /** seconds */
      duration?: number
      /** a run before the measured one, whose numbers are kept apart in `result.warmup` */
      warmup?: { connections?: number; duration?: number }
      /** seconds */
      timeout?: number
    }
    interface Stats {
      average: number
      mean: number
      stddev: number
      min: number
      max: number
      p50: number
      p99: number
      total?: number
    }
    interface Result {
      /** seconds */
      duration: number
      errors: number
      timeouts: number
      non2xx: number
      resets: number
      requests: Stats & { sent: number }
      latency: Stats
      statusCodeStats: Record<string, { count: number }>
    }
    interface Instance extends EventEmitter, PromiseLike<Result> {
      on(event: 'response', listener: (client: unknown, statusCode: number, bytes: number, responseTimeMs: number) => void): this
      on(event: string, listener: (...args: any[]) => void): this
    }
  }

  function autocannon(options: autocannon.Options): autocannon.Instance
  export default autocannon
}
