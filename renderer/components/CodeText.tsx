/**
 * A text whose `backticked` parts are names to type (commands, fields): shown as <code>, never with the backticks.
 */
export function CodeText({ text }: { text: string }) {
  const parts = text.split(/`([^`]+)`/)
  return <>{parts.map((part, i) => (i % 2 === 1 ? <code key={i}>{part}</code> : part))}</>
}
