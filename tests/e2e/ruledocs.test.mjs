// The page's wasm leaves the rule examples out (`rule_doc!` in src/rule.rs)
// and its worker puts them back from www/src/generated/rule-examples.json
// (www/src/ruledocs.js). For every rule, what the page then shows must be what
// the CLI prints: `apcheck rules --format json`'s entry, and `apcheck explain`'s
// text, byte for byte as the page shows it. Runs the page's own wasm in Node.

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { explainWithExamples, withExamples } from '../../www/src/ruledocs.js';
import { repoRoot, requireBuild } from './harness.mjs';

const cli = process.env.APCHECK_BIN ?? join(process.env.CARGO_TARGET_DIR ?? join(repoRoot, 'target'), 'debug', 'apcheck');

// The CLI masks what looks like a credential as it prints (an example's
// `https://bot:hunter2@…` shows as `bot:*******@`), character for character;
// the page's text is the core's unmasked one. Every other character is equal.
function assertSameUpToMasking(page, printed, code) {
  const [a, b] = [[...page], [...printed]];
  assert.equal(a.length, b.length, `${code}: ${page} \n---\n ${printed}`);
  const differing = a.findIndex((c, i) => c !== b[i] && b[i] !== '*');
  assert.equal(differing, -1, `${code} differs at ${differing}: ${page.slice(differing - 40, differing + 40)}`);
}

test("the page's rule docs, examples put back, are the CLI's for every rule", async () => {
  requireBuild();
  assert.ok(existsSync(cli), `${cli} is missing: build it with \`cargo build\` (or set APCHECK_BIN)`);
  const glue = await import(join(repoRoot, 'www/pkg/apcheck.js'));
  glue.initSync({ module: readFileSync(join(repoRoot, 'www/pkg/apcheck_bg.wasm')) });
  const examples = JSON.parse(readFileSync(join(repoRoot, 'www/src/generated/rule-examples.json'), 'utf8'));
  const pageRules = JSON.parse(glue.rules());
  // Without the examples the page's registry differs: the test can fail.
  // The CLI also lists the `--connect` rules, which the page's build leaves out.
  const cliRules = JSON.parse(execFileSync(cli, ['rules', '--format', 'json'], { encoding: 'utf8', maxBuffer: 16 << 20 }));
  const pageCodes = new Set(pageRules.map((rule) => rule.code));
  assert.ok(pageCodes.size > 100, `the page lists ${pageCodes.size} rules`);
  const cliPageRules = cliRules.filter((rule) => pageCodes.has(rule.code));
  assert.notDeepEqual(pageRules, cliPageRules, "the page's wasm holds no examples");
  assert.deepEqual(pageRules.map((rule) => withExamples(rule, examples)), cliPageRules);
  for (const { code } of cliPageRules) {
    const answer = explainWithExamples(JSON.parse(glue.explain(code)), examples);
    assert.equal(answer.ok, true, code);
    assert.deepEqual(answer.rule, cliPageRules.find((rule) => rule.code === code), code);
    assertSameUpToMasking(answer.text, execFileSync(cli, ['explain', code], { encoding: 'utf8' }), code);
  }
  assert.equal(explainWithExamples(JSON.parse(glue.explain('AP999')), examples).ok, false);
});
