// The worker calls the core's exports by name: every name it allows, and every
// PackageTree method it uses, must exist in the built wasm glue — a rename in
// the Rust exports fails here, before any view does.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { repoRoot, requireBuild } from './harness.mjs';

test('every export the worker calls exists in the wasm glue', async () => {
  requireBuild();
  const worker = readFileSync(join(repoRoot, 'www/src/worker.js'), 'utf8');
  const glue = await import(join(repoRoot, 'www/pkg/apcheck.js'));
  const allowed = [...worker.match(/const TEXT_EXPORTS = \[([^\]]*)\]/)[1].matchAll(/'([^']+)'/g)].map((m) => m[1]);
  assert.ok(allowed.length >= 8);
  for (const name of allowed) assert.equal(typeof glue[name], 'function', `core export ${name}`);
  const methods = [...worker.matchAll(/tree\.([a-zA-Z]+)\(/g)].map((m) => m[1]);
  for (const name of new Set(methods)) {
    assert.equal(typeof glue.PackageTree.prototype[name], 'function', `PackageTree.${name}`);
  }
});
