import { useCallback, useState, type ClipboardEvent, type DragEvent } from 'react'

/** Reads a file as a data URL (how the app sends images: spec'd inputs accept data URLs). */
export function fileToDataUrl(file: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader()
    reader.onload = () => resolve(reader.result as string)
    reader.onerror = () => reject(reader.error ?? new Error('could not read the file'))
    reader.readAsDataURL(file)
  })
}

const imagesOf = (files: Iterable<File> | ArrayLike<File>) => Array.from(files).filter((f) => f.type.startsWith('image/'))

/**
 * Image input from drag-and-drop and paste, for any element: spread the returned handlers on it.
 * A file `<input type="file" accept="image/*">` calls `addFiles` too.
 */
export function useImageInput(onImages: (files: File[]) => void) {
  const [dragging, setDragging] = useState(false)
  const addFiles = useCallback((files: FileList | File[] | null) => {
    const images = files ? imagesOf(files) : []
    if (images.length > 0) onImages(images)
  }, [onImages])
  return {
    addFiles,
    /** files are being dragged over the target (for its highlight) */
    dragging,
    handlers: {
      onDragOver: (e: DragEvent) => {
        if (e.dataTransfer.types.includes('Files')) e.preventDefault()
        setDragging(e.defaultPrevented)
      },
      onDragLeave: () => setDragging(false),
      onDrop: (e: DragEvent) => {
        setDragging(false)
        if (e.dataTransfer.files.length === 0) return
        e.preventDefault()
        addFiles(e.dataTransfer.files)
      },
      onPaste: (e: ClipboardEvent) => {
        const images = imagesOf(e.clipboardData.files)
        if (images.length === 0) return
        e.preventDefault()
        onImages(images)
      },
    },
  }
}
