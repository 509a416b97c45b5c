import type { CatalogModel } from '../../../shared/types.js'
import type { AdmissionSpec } from '../admission.js'
import type { PriceOptions, QuotePrice } from '../billing/quote-price.js'
import type { RequestContext } from '../context.js'

/**
 * An endpoint a quote can price (routes/quote.ts): its own admission (the quote skips its funds step) and the price
 * of the admitted request. It lives beside the routes, not in billing/quote-price.ts, which admission's funds step
 * reads for the worst case (a circle otherwise).
 */
export interface Quotable<Req> {
  // The input and funds types are the endpoint's own business: a quote reads neither.
  admission: AdmissionSpec<unknown, Req, unknown>
  /** `options`: a hold's (billing/holds.ts); a quote passes none. */
  price(request: Req, model: CatalogModel, ctx: RequestContext, options?: PriceOptions): Promise<QuotePrice>
}
