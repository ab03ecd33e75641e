// The two ways a call can fail, kept apart so that callers can tell "the API said no"
// (ApiError: it answered, with a status) from "the API could not be reached" (NetworkError).

/** The error body of the API: `{ error: { status, code, message, details? } }`. */
export interface ErrorBody {
  error: { status: number; code: string; message: string; details?: { field: string; message: string }[] };
}

/** A non-2xx answer. `body` is the parsed answer (the text when it was not JSON). */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly body: unknown;

  constructor(status: number, code: string, message: string, body: unknown) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.body = body;
  }

  /** Field-level reasons of a 400, when the API gave them. */
  get details(): { field: string; message: string }[] {
    return (this.body as Partial<ErrorBody> | undefined)?.error?.details ?? [];
  }
}

/**
 * A 410 `gone` from the change feed: the cursor is older than the deletions the server keeps
 * (CHANGES_RETENTION_DAYS). Start again without a cursor; `client.sync()` does so by itself.
 */
export class CursorGoneError extends ApiError {
  constructor(status: number, code: string, message: string, body: unknown) {
    super(status, code, message, body);
    this.name = 'CursorGoneError';
  }
}

/** The request never got an answer (DNS, refused connection, CORS, offline); `cause` says why. */
export class NetworkError extends Error {
  constructor(message: string, cause: unknown) {
    super(message);
    this.name = 'NetworkError';
    // Set by hand: the `cause` option of the Error constructor is ES2022, the toolkit targets ES2019.
    this.cause = cause;
  }
}

/** Builds the ApiError of a non-2xx answer from whatever body came with it. */
export function errorFromAnswer(status: number, statusText: string, body: unknown): ApiError {
  const error = (body as Partial<ErrorBody> | undefined)?.error;
  if (error && typeof error.code === 'string' && typeof error.message === 'string') {
    if (status === 410 && error.code === 'gone') return new CursorGoneError(status, error.code, error.message, body);
    return new ApiError(status, error.code, error.message, body);
  }
  // Not the API's own envelope (a proxy or gateway answered): keep the status, say so.
  return new ApiError(status, `http_${status}`, `HTTP ${status}${statusText ? ` ${statusText}` : ''}`, body);
}
