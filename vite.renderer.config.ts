/**
 * The renderer's Vite configuration, shared by electron-vite (the desktop build) and `vite build`
 * (the web shell's build). Paths are relative so the same output loads from the app:// protocol and
 * from the web shell's http server.
 */
import { resolve } from 'node:path';
import { defineConfig, type UserConfig } from 'vite';
import react from '@vitejs/plugin-react';

const root = resolve(import.meta.dirname, 'src-renderer');

export const rendererConfig: UserConfig = {
  root,
  base: './',
  plugins: [react()],
  resolve: { alias: { '@locales': resolve(import.meta.dirname, 'locales') } },
  build: {
    outDir: resolve(import.meta.dirname, 'out/renderer'),
    emptyOutDir: true,
    chunkSizeWarningLimit: 1500,
    rollupOptions: { input: resolve(root, 'index.html') },
  },
};

export default defineConfig(rendererConfig);
