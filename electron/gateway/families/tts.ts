/**
 * The text-to-speech family (OpenAI's audio.speech): routes/speech.ts checks the input length and
 * response_format against these lists.
 */
import type { FamilyModule } from '../contract/family.js'

export const ttsFamily: FamilyModule = {
  name: 'tts',
  type: 'speech',
  defaults: {
    endpoints: ['audio.speech'],
    formats: ['mp3', 'opus', 'aac', 'flac', 'wav', 'pcm'],
    maxInputChars: 4096,
    delivery: ['stream'],
  },
}
