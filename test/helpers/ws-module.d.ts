// The part of the `ws` client the tests and the events benchmark use (the package ships no types, @types/ws is not installed).
declare module 'ws' {
  import type { IncomingMessage, ClientRequest } from 'node:http';
  class WebSocket {
    constructor(url: string, options?: { headers?: Record<string, string>; maxPayload?: number; localAddress?: string });
    static readonly OPEN: number;
    readonly readyState: number;
    readonly bufferedAmount: number;
    send(data: string | Buffer, options?: { binary?: boolean }): void;
    close(code?: number, reason?: string): void;
    terminate(): void;
    pause(): void;
    resume(): void;
    on(event: 'open', cb: () => void): this;
    on(event: 'close', cb: (code: number, reason: Buffer) => void): this;
    on(event: 'message', cb: (data: Buffer, isBinary: boolean) => void): this;
    on(event: 'unexpected-response', cb: (req: ClientRequest, res: IncomingMessage) => void): this;
    on(event: 'error', cb: (err: Error) => void): this;
    removeListener(event: 'message', cb: (data: Buffer, isBinary: boolean) => void): this;
  }
  export default WebSocket;
}
