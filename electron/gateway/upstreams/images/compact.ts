/** The object without its undefined fields: what is not set is not sent, so the vendor's default applies. */
export function compact(fields: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined))
}
