import react from '@vitejs/plugin-react'
import { defineConfig } from 'vite'

/** The renderer: built into dist/renderer, which the gateway serves at `/` (and the Electron window loads). */
export default defineConfig({
  root: 'renderer',
  base: '/',
  plugins: [react()],
  // The "select object" worker is an ES module (as under the dev server), so it can import OpenCV.js lazily.
  // No warning of how long plugins took: it depends on the machine's load, not on the code (a busy machine printed
  // one into npm start's output).
  worker: { format: 'es', rolldownOptions: { checks: { bundlerTimings: false } } },
  build: { outDir: '../dist/renderer', emptyOutDir: true, sourcemap: false, chunkSizeWarningLimit: 1500, rolldownOptions: { checks: { bundlerTimings: false } } },
  server: {
    // `npm run dev:renderer`: hot reload against a gateway already running on the default port.
    proxy: Object.fromEntries(['/v1', '/v1beta', '/admin', '/spec', '/api'].map((p) => [p, { target: 'http://127.0.0.1:8787', headers: { origin: 'http://127.0.0.1:8787' } }])),
  },
})
