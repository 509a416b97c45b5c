// Image models as the integration and browser files configure them: one row per image family, with the limits the
// tests rely on (counts, sizes, references). A file that needs another limit spreads a row and overrides it. The
// rows are frozen: several gateways of one file share them, so none may change them.

function frozen<T extends object>(row: T): T {
  for (const value of Object.values(row)) if (typeof value === 'object' && value !== null) frozen(value)
  return Object.freeze(row)
}

export const IMG_GPT = frozen({ id: 'img-gpt', family: 'gpt-image', vendor: 'openai', pricing: { unit: 'image', price: 0.04 }, variant: '2.5', sizeTiers: [], maxN: 10, maxReferenceImages: 16 })

export const IMG_SEEDREAM = frozen({ id: 'img-seedream', family: 'seedream', vendor: 'ark', pricing: { unit: 'image', price: 0.03 }, sizeTiers: ['2K', '4K'], minPixels: 3686400, maxPixels: 16777216, minRatio: '1:16', maxRatio: '16:1', outputFormats: ['jpeg'], maxReferenceImages: 14 })

/** Gemini's image model at one size (1K) and one aspect ratio (1:1). */
export const IMG_GEMINI_1K = frozen({ id: 'img-gemini', family: 'gemini-image', vendor: 'gemini', pricing: { unit: 'image', price: 0.05 }, imageSizes: ['1K'], maxReferenceImages: 14, aspectRatios: ['1:1'] })

export const IMG_GROK = frozen({ id: 'img-grok', family: 'grok-image', vendor: 'xai', pricing: { unit: 'image', price: 0.02 } })

export const IMG_KLING = frozen({ id: 'img-kling', family: 'kling-image', vendor: 'kling', pricing: { unit: 'image', price: 0.02 } })
