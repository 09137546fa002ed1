// The HTTP client for vjd's routes: the key in the X-API-Key header, JSON bodies, conditional image GETs.
// It counts what it sends so the tests and the bench can see the module's cost at vjd.

export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export interface RequestLog {
  requests: number;
  notModified: number;
  images: number;
  byRoute: Record<string, number>;
}

export interface ImageReply {
  status: 200 | 304;
  etag: string | null;
  body: Buffer | null;
}

const TIMEOUT_MS = 15_000;

export class VjdHttp {
  readonly log: RequestLog = { requests: 0, notModified: 0, images: 0, byRoute: {} };

  constructor(
    private readonly base: string,
    private readonly apiKey: string,
  ) {}

  private headers(extra: Record<string, string> = {}): Record<string, string> {
    return this.apiKey ? { 'X-API-Key': this.apiKey, ...extra } : extra;
  }

  private count(method: string, path: string): void {
    this.log.requests++;
    const route = `${method} ${path.split('?')[0]}`;
    this.log.byRoute[route] = (this.log.byRoute[route] ?? 0) + 1;
  }

  async get<T = any>(path: string): Promise<T> {
    this.count('GET', path);
    const res = await fetch(`${this.base}${path}`, { headers: this.headers(), signal: AbortSignal.timeout(TIMEOUT_MS) });
    return this.json<T>(res);
  }

  /** A POST; a body of `undefined` sends none (routes such as /tempo/tap take an empty body). */
  async post<T = any>(path: string, body?: unknown): Promise<T> {
    this.count('POST', path);
    const init: RequestInit = { method: 'POST', signal: AbortSignal.timeout(TIMEOUT_MS) };
    if (body === undefined) init.headers = this.headers();
    else {
      init.headers = this.headers({ 'Content-Type': 'application/json' });
      init.body = JSON.stringify(body);
    }
    return this.json<T>(await fetch(`${this.base}${path}`, init));
  }

  /** An image with If-None-Match: an unchanged picture is a 304 without a body. */
  async image(path: string, etag: string | null): Promise<ImageReply> {
    this.count('GET', path);
    this.log.images++;
    const headers = this.headers(etag ? { 'If-None-Match': etag } : {});
    const res = await fetch(`${this.base}${path}`, { headers, signal: AbortSignal.timeout(TIMEOUT_MS) });
    if (res.status === 304) {
      this.log.notModified++;
      await res.arrayBuffer().catch(() => undefined);
      return { status: 304, etag: res.headers.get('etag') ?? etag, body: null };
    }
    if (!res.ok) await this.json(res);
    return { status: 200, etag: res.headers.get('etag'), body: Buffer.from(await res.arrayBuffer()) };
  }

  private async json<T>(res: Response): Promise<T> {
    const text = await res.text();
    let body: any = null;
    try {
      body = text ? JSON.parse(text) : null;
    } catch {
      body = null;
    }
    if (!res.ok) throw new HttpError(res.status, body?.code ?? 'HTTP_ERROR', body?.message ?? `HTTP ${res.status}`);
    return body as T;
  }
}
