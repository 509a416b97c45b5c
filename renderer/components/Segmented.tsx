/**
 * A choice between a few modes (generate / edit …), drawn as joined segments so that it cannot be taken
 * for a submit button. Each option's test id is `<testId>-<value>`.
 */
export function Segmented<V extends string>({ value, options, onChange, label, testId, disabled, titles }: {
  value: V
  options: ReadonlyArray<{ value: V; label: string }>
  onChange: (value: V) => void
  label: string
  testId: string
  disabled?: (value: V) => boolean
  titles?: Partial<Record<V, string>>
}) {
  return (
    <div className="segmented" role="radiogroup" aria-label={label}>
      {options.map((o) => (
        <button
          key={o.value}
          type="button"
          role="radio"
          aria-checked={value === o.value}
          disabled={disabled?.(o.value)}
          title={titles?.[o.value]}
          onClick={() => onChange(o.value)}
          data-testid={`${testId}-${o.value}`}
        >
          {o.label}
        </button>
      ))}
    </div>
  )
}
