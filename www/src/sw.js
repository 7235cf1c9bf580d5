// The service worker of the served page: it keeps this build's files
// (`FILES`, under a cache named after the build's hash, put in by
// scripts/build-web.mjs), so that the page reopens, and its Web Workers
// restart after a cancel, with the network gone. A new build is a new cache;
// the old one is dropped once the new one is complete, and with it the wasm
// an older build's workers kept. It only ever fetches
// the page's own files, from the page's own origin (its CSP: connect-src 'self').

/* global BUILD_VERSION, BUILD_FILES, WASM_HASH */
const CACHE = `apcheck-${BUILD_VERSION}`;
// The inflated wasm, which the page's workers keep themselves (www/src/worker.js).
const WASM_CACHE = `apcheck-wasm-${WASM_HASH}`;
// The page ('./'), its content-hashed build files, the manifest and the icon.
const FILES = BUILD_FILES;

self.addEventListener('install', (event) => {
  event.waitUntil(
    caches
      .open(CACHE)
      .then((cache) => cache.addAll(FILES))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((names) => Promise.all(names.filter((name) => name.startsWith('apcheck-') && name !== CACHE && name !== WASM_CACHE).map((name) => caches.delete(name))))
      .then(() => self.clients.claim()),
  );
});

self.addEventListener('fetch', (event) => {
  const { request } = event;
  if (request.method !== 'GET' || new URL(request.url).origin !== location.origin) return;
  // A page load is the page itself, whatever its fragment; the build's files are
  // this version's. Anything else goes to the network as it would without us.
  const key = request.mode === 'navigate' ? './' : request;
  event.respondWith(caches.match(key, { cacheName: CACHE, ignoreSearch: true }).then((hit) => hit ?? fetch(request)));
});
