import type { Ref } from 'react'

/**
 * A file picker for images that can pick the same file twice in a row (the value is cleared after each
 * pick); hidden ones are opened by a label or a button.
 */
export function ImageFileInput({ onFiles, testId, multiple = false, hidden = false, ref }: {
  onFiles: (files: FileList | null) => void
  testId: string
  multiple?: boolean
  hidden?: boolean
  ref?: Ref<HTMLInputElement>
}) {
  return (
    <input
      ref={ref}
      type="file"
      accept="image/*"
      multiple={multiple}
      hidden={hidden}
      onChange={(e) => {
        onFiles(e.target.files)
        e.target.value = ''
      }}
      data-testid={testId}
    />
  )
}
