/** A destructive action asked first with the browser's confirmation dialog (`question`). */
export function ConfirmButton({ label, question, onConfirm, testId, disabled }: {
  label: string
  question: string
  onConfirm: () => void
  testId: string
  disabled?: boolean
}) {
  return (
    <button type="button" className="danger" disabled={disabled} onClick={() => { if (window.confirm(question)) onConfirm() }} data-testid={testId}>
      {label}
    </button>
  )
}
