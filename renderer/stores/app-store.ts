import { create } from 'zustand'
import { persist } from 'zustand/middleware'
import { createChatSlice, chatPersisted, type ChatSlice } from '../panels/chat/chat-slice'
import { createImagesSlice, imagesPersisted, type ImagesSlice } from '../panels/image-editor/images-slice'
import { createVideoSlice, videoPersisted, type VideoSlice } from '../panels/video-tasks/video-slice'
import { storage, type PersistedDocs } from './gateway-storage'
import { createSessionSlice, uiPersisted, type SessionSlice } from './session-slice'

export type AppState = SessionSlice & ChatSlice & ImagesSlice & VideoSlice

export { storage }

/**
 * The one bound store, made of one slice per concern; persistence wraps the combined store only.
 * Hydration waits for sign-in (`useAppStore.persist.rehydrate()` in App), since the state lives behind the admin API.
 */
export const useAppStore = create<AppState>()(
  persist(
    (...a) => ({
      ...createSessionSlice(...a),
      ...createChatSlice(...a),
      ...createImagesSlice(...a),
      ...createVideoSlice(...a),
    }),
    {
      name: 'gatehouse',
      storage,
      skipHydration: true,
      partialize: (s): PersistedDocs => ({ ui: uiPersisted(s), chat: chatPersisted(s), images: imagesPersisted(s), video: videoPersisted(s) }),
      merge: (persisted, current) => {
        const docs = (persisted ?? {}) as PersistedDocs
        return { ...current, ...(docs.ui as object), ...(docs.chat as object), ...(docs.images as object), ...(docs.video as object) }
      },
    },
  ),
)
