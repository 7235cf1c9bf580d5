// The rule examples the page's wasm leaves out (`rule_doc!` in src/rule.rs),
// put back into the core's answers. `examples` is www/src/generated/rule-examples.json:
// every rule's `{failing, fixed}`, serialized as the registry serializes them,
// written by tests/rule_docs.rs. tests/e2e/ruledocs.test.mjs holds the result
// equal to what `apcheck rules --format json` and `apcheck explain` print.

import { visible } from './visible.js';

/** A rule of an `explain()` answer (or of the registry, in tests), with its examples. */
export function withExamples(rule, examples) {
  const pair = examples[rule.code];
  return pair ? { ...rule, doc: { ...rule.doc, failing: pair.failing, fixed: pair.fixed } } : rule;
}

/** An `explain()` answer whose rule and text show the examples, as `apcheck explain` prints them. */
export function explainWithExamples(answer, examples) {
  if (!answer.ok) return answer;
  const pair = examples[answer.rule.code];
  if (!pair) return answer;
  // The core wrote its placeholder examples between these two headings.
  const start = answer.text.indexOf('Example (fails)\n');
  const end = answer.text.lastIndexOf('Online\n');
  const text = answer.text.slice(0, start) + exampleSection(pair) + answer.text.slice(end);
  return { ...answer, rule: withExamples(answer.rule, examples), text };
}

// What `render::rules::explain` writes for the examples: each part of each
// example (`registry::example_parts`), a file's lines indented by two spaces,
// every line escaped as `render::escape::visible` escapes it (which, unlike
// the page's `visible`, also spells out a tab or a carriage return).
function exampleSection({ failing, fixed }) {
  const line = (text) => `${visible(text).replace(/[\t\r]/g, (c) => `\\u{${c.codePointAt(0).toString(16)}}`)}\n`;
  let text = '';
  for (const [title, example] of [['Example (fails)', failing], ['Fixed', fixed]]) {
    text += `${title}\n`;
    for (const part of exampleParts(example)) {
      if (part.words !== undefined) {
        for (const words of lines(`  ${part.words}`)) text += line(words);
      } else if (part.target !== undefined) {
        text += line(`  --- ${part.path} -> ${part.target} (symlink)`);
      } else {
        text += line(`  --- ${part.label}`);
        for (const content of lines(part.contents)) text += line(`  ${content}`);
      }
    }
    text += '\n';
  }
  return text;
}

// `registry::example_parts` over the serialized example (`{kind, files}`).
function exampleParts({ kind, files }) {
  const file = ([label, contents]) => ({ label, contents });
  switch (kind) {
    case 'package':
      return files.map(file);
    case 'package-with-links':
      return [...files.files.map(file), ...files.links.map(([path, target]) => ({ path, target }))];
    case 'described':
      return [{ words: files }];
    case 'snapshot':
      return [file(['snapshot.json', files])];
    case 'drift':
      return [file(['snapshot.json', files.snapshot]), ...files.files.map(file)];
    case 'changes':
      return [file(['old.json', files.old]), file(['new.json', files.new])];
    case 'call':
      return [file(['snapshot.json', files.snapshot]), file(['tool', files.tool]), file(['arguments.json', files.arguments])];
    case 'validate':
      return [file(['schema.json', files.schema]), file(['document.json', files.document])];
    default:
      throw new Error(`unknown rule example kind ${kind}`);
  }
}

// Rust's `str::lines`: split at \n, a \r before it dropped, no empty last line.
function lines(text) {
  const parts = text.split('\n');
  const last = parts.pop();
  const ended = parts.map((line) => (line.endsWith('\r') ? line.slice(0, -1) : line));
  return last === '' ? ended : [...ended, last];
}
