// The one error type of the API. Every failure a client can see is an ApiError, shaped by
// the error handler into { error: { status, code, message, details? } }.

export interface ErrorDetail {
  field: string;
  message: string;
}

const codes = {
  400: 'invalid_request',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  405: 'method_not_allowed',
  408: 'request_timeout',
  409: 'conflict',
  410: 'gone',
  412: 'precondition_failed',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  429: 'rate_limited',
  431: 'headers_too_large',
  500: 'internal_error',
  503: 'unavailable',
} as const;

/** The most `details` entries one error lists; `more_details` counts the others. */
export const MAX_DETAILS = 20;

export type ErrorStatus = keyof typeof codes;
export type ErrorCode = (typeof codes)[ErrorStatus];

export class ApiError extends Error {
  readonly code: ErrorCode;
  constructor(
    readonly status: ErrorStatus,
    message: string,
    readonly details?: ErrorDetail[],
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.code = codes[status];
  }

  toBody() {
    const error: {
      status: number;
      code: string;
      message: string;
      details?: ErrorDetail[];
      more_details?: number;
    } = { status: this.status, code: this.code, message: this.message };
    if (this.details?.length) {
      // A request with 1,800 unknown parameters must not get an answer many times its own
      // size: the first MAX_DETAILS are listed and the rest only counted.
      error.details = this.details.slice(0, MAX_DETAILS);
      if (this.details.length > MAX_DETAILS) error.more_details = this.details.length - MAX_DETAILS;
    }
    return { error };
  }
}

export function codeFor(status: ErrorStatus): ErrorCode {
  return codes[status];
}

/** A 400 naming one field: "perpage must be an integer from 1 to 100". */
export function invalid(field: string, rule: string): ApiError {
  return new ApiError(400, `${field} ${rule}`, [{ field, message: rule }]);
}
