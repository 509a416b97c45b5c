import { useEffect, useState } from 'react'
import { fileToDataUrl } from './image-input'

// A file is read once, however often the request built from it is priced.
const read = new WeakMap<File, Promise<string>>()
const dataUrlOf = (file: File): Promise<string> => {
  let url = read.get(file)
  if (!url) read.set(file, (url = fileToDataUrl(file)))
  return url
}

/** The files as data URLs, in order; null until all are read (or when one cannot be). */
export function useDataUrls(files: File[]): string[] | null {
  const [urls, setUrls] = useState<{ files: File[]; urls: string[] } | null>(null)
  useEffect(() => {
    let current = true
    Promise.all(files.map(dataUrlOf)).then((u) => current && setUrls({ files, urls: u }), () => current && setUrls(null))
    return () => {
      current = false
    }
  }, [files])
  return urls?.files === files ? urls.urls : null
}
