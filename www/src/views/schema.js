// The Schema view: validate a JSON document against a built-in schema (the
// Agent Plugins and MCP schemas the core embeds) or one of your own; every
// failure is listed with its instance pointer and marked at its span.

import { call } from '../client.js';
import { byteToCharOffset, createEditor } from '../editor.js';
import { keeper } from '../keep.js';
import { callWithProgress, checkbox, copyButton, debounce, h, openFileButton, resultArea, select, status } from '../util.js';

const OWN = '';
const SAMPLE_INSTANCE = `{
  "$schema": "https://agent-plugins.org/schemas/1.0.0/plugin.schema.json",
  "name": "My Plugin",
  "version": "1.0"
}
`;
const SAMPLE_SCHEMA = `{
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "type": "object",
  "required": ["name"],
  "properties": { "name": { "type": "string", "pattern": "^[a-z0-9-]+$" } }
}
`;

let instance;
let schema;
let results;
const options = { builtin: null, formats: false };

function issueRange(editor, issue) {
  if (issue.span) return [byteToCharOffset(editor.text, issue.span.start), byteToCharOffset(editor.text, issue.span.end)];
  const at = editor.offsetAt(issue.line || 1, issue.column || 1);
  return [at, at];
}

function issueList(editor, issues) {
  return h(
    'ol.diagnostics',
    {},
    issues.map((issue) => {
      const [from, to] = issueRange(editor, issue);
      return h(
        'li.diag.error',
        {},
        h(
          'div.diag-head',
          {},
          h('button.link.where', { type: 'button', onclick: () => editor.reveal(from, to) }, `${issue.line}:${issue.column}`),
          h('code.pointer', {}, issue.instance_pointer || '(root)'),
          h('span.spec', {}, issue.keyword),
          issue.element ? h('span.muted', {}, `in ${issue.element.name ?? `#${issue.element.index}`}`) : null,
        ),
        h('p.message', {}, issue.message),
        h('p.spec', {}, `schema: ${issue.schema_location}`),
      );
    }),
  );
}

function markIssues(editor, issues) {
  editor.mark(issues.map((issue) => {
    const [from, to] = issueRange(editor, issue);
    return { from, to, severity: 'error', message: `${issue.keyword}: ${issue.message}` };
  }));
}

async function run() {
  const request = { formats: options.formats, ...(options.builtin ? { builtin: options.builtin } : {}) };
  const ticket = results.ticket();
  const answer = await callWithProgress('Validating', 'validate_json', instance.text, options.builtin ? '' : schema.text, JSON.stringify(request));
  if (!answer) return results.cancelled(ticket);
  if (ticket !== results.ticket()) return;
  instance.mark([]);
  schema.mark([]);
  if (!answer.ok) {
    const { error } = answer;
    const target = error.document === 'instance' ? instance : error.document === 'schema' ? schema : null;
    if (error.issues?.length) markIssues(schema, error.issues);
    else if (target && error.line) {
      const at = error.offset !== undefined ? byteToCharOffset(target.text, error.offset) : target.offsetAt(error.line, error.column);
      target.mark([{ from: at, to: at + 1, severity: 'error', message: error.message }]);
    }
    const where = error.line ? ` at ${error.line}:${error.column}` : '';
    results.show(
      ticket,
      status('bad', `${error.document === 'schema' ? 'The schema' : error.document === 'instance' ? 'The document' : 'The request'} is not usable${where}: ${error.message}`),
      error.issues?.length ? issueList(schema, error.issues) : '',
    );
    return;
  }
  markIssues(instance, answer.issues);
  results.show(
    ticket,
    answer.valid
      ? status('ok', `Valid against ${options.builtin ?? 'your schema'} (${answer.dialect}).`)
      : status('bad', `${answer.issues.length} ${answer.issues.length === 1 ? 'failure' : 'failures'} against ${options.builtin ?? 'your schema'} (${answer.dialect}).`),
    // The core's note, as the CLI prints it, when the document is another kind of file.
    answer.kind_mismatch ? h('p.muted.kind-mismatch', {}, `Note: ${answer.kind_mismatch}.`) : '',
    answer.issues.length ? issueList(instance, answer.issues) : '',
    answer.issues.length ? h('div.row', {}, copyButton('Copy failures as JSON', () => JSON.stringify(answer.issues, null, 2), 'Failures copied')) : '',
  );
}

export async function setUpSchemaView() {
  const root = document.getElementById('schema-root');
  const { schemas } = await call('builtin_schemas');
  options.builtin = schemas[0]?.name ?? null;
  const debounced = debounce(run, 300);
  const rerun = () => (results.changed(), kept.changed(), debounced());
  const runNow = () => (results.changed(), kept.changed(), run());
  const description = h('span.muted');
  const schemaPane = h('div.pane.schema-pane');
  const describe = () => {
    const picked = schemas.find((s) => s.name === options.builtin);
    description.textContent = picked ? picked.description : 'Paste your schema on the right (draft 4 to 2020-12; no $ref is fetched).';
    schemaPane.hidden = Boolean(picked);
  };
  const picker = select('Schema', [...schemas.map((s) => [s.name, s.name]), [OWN, 'Your own schema…']], {
    value: options.builtin,
    onChange: (value) => {
      options.builtin = value || null;
      describe();
      runNow();
    },
  });
  const formats = checkbox('Check formats', { title: 'Assert "format" (date-time, uri, email…)', onChange: (v) => ((options.formats = v), runNow()) });
  // The two documents, and which schema the document is validated against.
  const kept = keeper('schema', {
    files: () => ({ document: instance.text, schema: schema.text, builtin: options.builtin ?? OWN, formats: String(options.formats) }),
    apply: (files) => {
      options.builtin = schemas.some((s) => s.name === files.builtin) ? files.builtin : null;
      picker.input.value = options.builtin ?? OWN;
      options.formats = formats.input.checked = files.formats === 'true';
      describe();
      instance.text = files.document ?? '';
      schema.text = files.schema ?? '';
    },
  });
  results = resultArea(h('div.schema-results', { 'aria-live': 'polite' }));
  const instanceHost = h('div.editor');
  const schemaHost = h('div.editor');
  schemaPane.append(h('div.row', {}, h('span.muted', {}, 'Schema'), ...openFileButton('schema-open-schema', 'Open…', '.json,application/json', (text) => (schema.text = text))), schemaHost);
  root.append(
    h(
      'div.toolbar',
      {},
      picker.element,
      formats.element,
      h('button.primary', { type: 'button', onclick: run, title: 'Ctrl+Enter' }, 'Validate'),
      description,
    ),
    h(
      'div.tool-grid',
      {},
      h('div.pane', {}, h('div.row', {}, h('span.muted', {}, 'Document'), ...openFileButton('schema-open-instance', 'Open…', '.json,application/json', (text) => (instance.text = text))), instanceHost),
      h('div.pane', {}, schemaPane, results.element),
    ),
    kept.element,
  );
  instance = createEditor(instanceHost, { doc: SAMPLE_INSTANCE, label: 'JSON document to validate', onChange: rerun });
  schema = createEditor(schemaHost, { doc: SAMPLE_SCHEMA, label: 'JSON Schema', onChange: rerun });
  describe();
  await kept.start();
  run();
}

export const schemaView = { run: () => run() };
