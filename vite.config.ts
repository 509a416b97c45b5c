import react from '@vitejs/plugin-react'
import { defineConfig } from 'vite'

/** The renderer: built into dist/renderer, which the gateway serves at `/` (and the Electron window loads). */
export default defineConfig({
  root: 'renderer',
  base: '/',
  plugins: [react()],
  // The "select object" worker is an ES module (as under the dev server), so it can import OpenCV.js lazily.
  worker: { format: 'es' },
  build: { outDir: '../dist/renderer', emptyOutDir: true, sourcemap: false, chunkSizeWarningLimit: 1500 },
  server: {
    // `npm run dev:renderer`: hot reload against a gateway already running on the default port.
    proxy: Object.fromEntries(['/v1', '/v1beta', '/admin', '/spec', '/api'].map((p) => [p, { target: 'http://127.0.0.1:8787', headers: { origin: 'http://127.0.0.1:8787' } }])),
  },
})
