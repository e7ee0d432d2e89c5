import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { build, defineConfig, type Plugin } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';
import { brand } from './src/app/brand.ts';
import { navigationFallbackDenylist, serverPathPattern, serverPaths } from './src/pwa/serverPaths.ts';

const shared = fileURLToPath(new URL('../../packages/shared/src/index.ts', import.meta.url));
const server = 'http://localhost:3000';

/**
 * The service worker's push and notification-click handlers (src/pwa/webPushWorker.ts), built on their
 * own as one classic script, /push-handlers.js, which the generated worker loads with importScripts.
 */
const pushHandlers = (): Plugin => ({
  name: 'parley-push-handlers',
  apply: 'build',
  async generateBundle() {
    const built = await build({
      configFile: false,
      logLevel: 'warn',
      resolve: { alias: { '@parley/shared': shared } },
      build: {
        write: false,
        copyPublicDir: false,
        minify: true,
        lib: { entry: fileURLToPath(new URL('./src/pwa/webPushWorker.ts', import.meta.url)), formats: ['iife'], name: 'parleyPushHandlers' },
      },
    });
    const output = Array.isArray(built) ? built[0] : built;
    const chunk = output && 'output' in output ? output.output.find((item) => item.type === 'chunk') : undefined;
    if (chunk?.type !== 'chunk') throw new Error('the push handlers were not built');
    this.emitFile({ type: 'asset', fileName: 'push-handlers.js', source: chunk.code });
  },
});

export default defineConfig({
  resolve: { alias: { '@parley/shared': shared } },
  server: {
    // Keys starting with ^ are patterns; a plain key would also match longer names such as /devices.
    proxy: Object.fromEntries(
      serverPaths.map((path) => [serverPathPattern(path), { target: server, ws: path === '/socket.io' }]),
    ),
  },
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: true },
  plugins: [
    react(),
    pushHandlers(),
    VitePWA({
      registerType: 'autoUpdate',
      strategies: 'generateSW',
      injectRegister: false,
      includeAssets: ['favicon.svg', 'apple-touch-icon-180x180.png'],
      manifest: {
        name: brand.name,
        short_name: brand.name,
        description: brand.description,
        theme_color: brand.primary,
        background_color: brand.background,
        display: 'standalone',
        start_url: '/',
        scope: '/',
        icons: [
          { src: '/pwa-192x192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
          { src: '/pwa-512x512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
          { src: '/maskable-icon-512x512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
        ],
      },
      workbox: {
        globPatterns: ['**/*.{js,css,html,svg,png,webmanifest}'],
        navigateFallback: '/index.html',
        navigateFallbackDenylist: navigationFallbackDenylist(),
        cleanupOutdatedCaches: true,
        importScripts: ['/push-handlers.js'],
      },
    }),
  ],
});
