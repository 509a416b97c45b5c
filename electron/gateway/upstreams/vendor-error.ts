import { messagesErrorType } from '../../../shared/error-codes.js'
import { GatewayError } from '../errors.js'

/**
 * A vendor error as a GatewayError. The status is kept, so 429 and 5xx stay retryable and fail over;
 * the vendor's own code travels as the error code, its message as the text.
 */
export function vendorError(status: number, code: string | undefined, message: string | undefined): GatewayError {
  return new GatewayError(status >= 500 ? 'upstream_error' : 'invalid_request', { text: message || `upstream answered HTTP ${status}` }, {
    status,
    type: messagesErrorType(status),
    upstreamCode: code,
  })
}
