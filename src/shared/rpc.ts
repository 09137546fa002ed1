// One request/answer envelope for messages to a worker thread or helper process: every request carries an id and a
// deadline, and every call ends in exactly one answer — the worker's, a timeout, or an error — so a client keeps one
// table of calls in flight instead of a map and a timeout shape per kind of request.

/** The fields every request message carries; the worker drops (or answers expired) a request past its deadline. */
export interface RpcEnvelope {
  id: number;
  /** Epoch ms; Number.MAX_SAFE_INTEGER when the request has none. */
  deadline: number;
}

/** The answer of a call nobody answered in time (the deadline plus the client's grace passed). */
export interface RpcTimeout {
  rpc: 'timeout';
  id: number;
  message: string;
}

/** The answer of a call that could not run: the worker or helper is gone, not started, or failed to send. */
export interface RpcError {
  rpc: 'error';
  id: number;
  message: string;
}

/** What a call resolves to: the worker's own answer `T`, or one of the two answers every call can get. */
export type RpcOutcome<T> = T | RpcTimeout | RpcError;

/** Whether an outcome is the worker's own answer. */
export function answered<T>(o: RpcOutcome<T>): o is T {
  return !(
    typeof o === 'object' &&
    o !== null &&
    'rpc' in o &&
    ((o as { rpc: unknown }).rpc === 'timeout' || (o as { rpc: unknown }).rpc === 'error')
  );
}

/** Whether a request's deadline has passed (the worker side's check, by its own clock). */
export function expired(req: RpcEnvelope, now = Date.now()): boolean {
  return now > req.deadline;
}

/** Deadline of a request that may wait for ever (a background re-open). */
export const NO_DEADLINE = Number.MAX_SAFE_INTEGER;

interface InFlight {
  resolve(v: unknown): void;
  timer: NodeJS.Timeout | null;
}

/**
 * The client's table of calls in flight. `call` allocates the id, sends the request, and resolves with the answer
 * given to `settle` for that id, a timeout once `deadline + graceMs` passed, or an error from `failAll`.
 */
export class RpcCalls {
  private nextId = 1;
  private readonly inFlight = new Map<number, InFlight>();

  /** Calls waiting for an answer. */
  get size(): number {
    return this.inFlight.size;
  }

  /**
   * Sends one request. `send` gets the envelope to put in the message; a `send` that throws answers an RpcError.
   * `graceMs` is how long past the deadline the client still waits (the worker decides by its own clock first).
   */
  call<T>(
    deadline: number,
    send: (env: RpcEnvelope) => void,
    opts: { graceMs?: number; timeoutMessage?: string } = {},
  ): Promise<RpcOutcome<T>> {
    const id = this.nextId++;
    return new Promise<RpcOutcome<T>>((resolve) => {
      const wait = deadline >= NO_DEADLINE ? null : Math.max(0, deadline - Date.now()) + (opts.graceMs ?? 0);
      const timer =
        wait === null
          ? null
          : setTimeout(
              () => {
                if (this.inFlight.delete(id)) resolve({ rpc: 'timeout', id, message: opts.timeoutMessage ?? 'no answer in time' });
              },
              Math.min(wait, 2 ** 31 - 1),
            );
      timer?.unref?.();
      this.inFlight.set(id, { resolve: resolve as (v: unknown) => void, timer });
      try {
        send({ id, deadline });
      } catch (err) {
        this.fail(id, (err as Error).message);
      }
    });
  }

  /** Hands a worker's answer to its call; false when the call already ended (timed out) or never was. */
  settle(id: number, answer: unknown): boolean {
    const w = this.inFlight.get(id);
    if (!w) return false;
    this.inFlight.delete(id);
    if (w.timer) clearTimeout(w.timer);
    w.resolve(answer);
    return true;
  }

  /** Ends one call with an RpcError. */
  fail(id: number, message: string): boolean {
    return this.settle(id, { rpc: 'error', id, message } satisfies RpcError);
  }

  /** Ends every call in flight with an RpcError (the worker or helper is gone). */
  failAll(message: string): void {
    for (const id of [...this.inFlight.keys()]) this.fail(id, message);
  }
}
