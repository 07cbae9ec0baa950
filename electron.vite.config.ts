import { resolve } from 'node:path';
import { defineConfig } from 'electron-vite';
import react from '@vitejs/plugin-react';

// Main and preload are thin; the core is bundled into main from electron/core. The renderer is a
// plain web app that the owner also serves over 127.0.0.1 in headless mode.
export default defineConfig({
  main: {
    build: {
      outDir: 'out/main',
      // The vault indexer and watcher run in worker threads: their own entries, next to index.js.
      lib: { entry: { index: resolve(__dirname, 'electron/main/index.ts'), 'vault-indexer': resolve(__dirname, 'electron/core/domains/vault/indexer-worker.ts'), 'vault-watcher': resolve(__dirname, 'electron/core/domains/vault/watch-worker.ts'), 'mail-parser': resolve(__dirname, 'electron/core/domains/mail/parse-worker.ts') } },
      rollupOptions: { external: ['better-sqlite3', 'onnxruntime-node', 'chokidar', 'isomorphic-git', 'electron'] },
    },
  },
  preload: {
    build: {
      outDir: 'out/preload',
      lib: { entry: resolve(__dirname, 'electron/preload/index.ts') },
      rollupOptions: { output: { format: 'cjs', entryFileNames: '[name].cjs' } },
    },
  },
  renderer: {
    root: resolve(__dirname, 'renderer'),
    plugins: [react()],
    build: {
      outDir: resolve(__dirname, 'out/renderer'),
      emptyOutDir: true,
      rollupOptions: { input: resolve(__dirname, 'renderer/index.html') },
    },
  },
});
