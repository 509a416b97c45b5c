/// <reference types="vite/client" />
import type { DesktopApi } from '../shared/ipc'

declare global {
  interface Window {
    /** present only inside the desktop window (electron/preload.ts) */
    api?: DesktopApi
  }
}
