// The entry for Node: the wasm is read from the package and instantiated
// synchronously on import, so every export is ready at once. Adds the disk
// reader (`readPackage`, `checkDirectory`, `findRoots`) and the configuration
// finder (`loadSettings`), which use `node:fs`.
import { readFileSync } from 'node:fs';
import { initSync } from './wasm/apcheck.js';

initSync({ module: readFileSync(new URL('./wasm/apcheck_bg.wasm', import.meta.url)) });

export * from './api.js';
export { readPackage, checkDirectory, findRoots, loadSettings, relativeTo } from './disk.js';
