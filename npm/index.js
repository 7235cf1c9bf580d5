// The entry for bundlers and browsers: the wasm is fetched beside this file
// (bundlers such as Vite, webpack 5 and esbuild follow `new URL(…, import.meta.url)`)
// and instantiated before any export is used.
import init from './wasm/apcheck.js';

await init({ module_or_path: new URL('./wasm/apcheck_bg.wasm', import.meta.url) });

export * from './api.js';
