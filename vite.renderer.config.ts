/**
 * The renderer's Vite configuration, shared by electron-vite (the desktop build) and `vite build`
 * (the web shell's build). Paths are relative so the same output loads from the app:// protocol and
 * from the web shell's http server.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { defineConfig, type Plugin, type UserConfig } from 'vite';
import react from '@vitejs/plugin-react';

const root = resolve(import.meta.dirname, 'src-renderer');

/**
 * pdf.js's character maps (Arabic and CJK fonts without their own encodings) and standard fonts, served
 * from our own origin at pdfjs/… (the CSP allows nothing else): emitted into the build, served in dev.
 */
function pdfjsAssets(): Plugin {
  const base = resolve(import.meta.dirname, 'node_modules/pdfjs-dist');
  const folders = ['cmaps', 'standard_fonts'];
  return {
    name: 'sijill:pdfjs-assets',
    generateBundle() {
      for (const folder of folders)
        for (const name of readdirSync(join(base, folder)))
          this.emitFile({
            type: 'asset',
            fileName: `pdfjs/${folder}/${name}`,
            source: readFileSync(join(base, folder, name)),
          });
    },
    configureServer(server) {
      server.middlewares.use('/pdfjs', (req, res, next) => {
        const [folder, name] = (req.url ?? '').replace(/^\//, '').split('/');
        if (!folder || !name || !folders.includes(folder) || !/^[\w.-]+$/.test(name)) return next();
        try {
          res.end(readFileSync(join(base, folder, name)));
        } catch {
          next();
        }
      });
    },
  };
}

export const rendererConfig: UserConfig = {
  root,
  base: './',
  plugins: [react(), pdfjsAssets()],
  resolve: { alias: { '@locales': resolve(import.meta.dirname, 'locales') } },
  build: {
    outDir: resolve(import.meta.dirname, 'out/renderer'),
    emptyOutDir: true,
    chunkSizeWarningLimit: 1500,
    rollupOptions: { input: resolve(root, 'index.html') },
  },
};

export default defineConfig(rendererConfig);
