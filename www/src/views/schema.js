// The Schema view: validate a JSON document against a built-in schema (the
// Agent Plugins and MCP schemas the core embeds) or one of your own; every
// failure is listed with its instance pointer and marked at its span. "Open
// many…" validates a set of files at once (a batch, shared across workers) and
// lists the ones that fail; any of them opens in the editor.

import { lane, validateBatch, warmBatchWorkers } from '../client.js';
import { byteToCharOffset, createEditor } from '../editor.js';
import { keeper } from '../keep.js';
import { callWithProgress, checkbox, copyButton, debounce, h, isCancelled, longList, openFileButton, openFilesButton, plural, resultArea, select, status, withProgress } from '../util.js';

// This view's jobs run on its own worker: they never wait behind another view's.
const core = lane('schema');

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

/** The request both validations send: which schema, and whether formats are asserted. */
function validateRequest() {
  return JSON.stringify({ formats: options.formats, ...(options.builtin ? { builtin: options.builtin } : {}) });
}

/** Shows why the core refused a request (`answer.ok` false): most often a schema that does not compile. */
function showRefusal(ticket, answer) {
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
}

async function run() {
  const ticket = results.ticket();
  const answer = await callWithProgress(core, 'Validating', 'validate_json', instance.text, options.builtin ? '' : schema.text, validateRequest());
  if (!answer) return results.cancelled(ticket);
  if (ticket !== results.ticket()) return;
  instance.mark([]);
  schema.mark([]);
  if (!answer.ok) return showRefusal(ticket, answer);
  // No verdict (the schema too expensive for this input, a regex past its
  // backtracking limit, a number f64 cannot hold): neither valid nor failing.
  const unchecked = answer.unchecked;
  if (unchecked) {
    const [from, to] = issueRange(instance, unchecked);
    instance.mark([{ from, to, severity: 'warning', message: unchecked.message }]);
  } else markIssues(instance, answer.issues);
  results.show(
    ticket,
    unchecked
      ? status('warn', `Could not check against ${options.builtin ?? 'your schema'} (${answer.dialect}): not valid, not failing.`)
      : answer.valid
        ? status('ok', `Valid against ${options.builtin ?? 'your schema'} (${answer.dialect}).`)
        : status('bad', `${answer.issues.length} ${answer.issues.length === 1 ? 'failure' : 'failures'} against ${options.builtin ?? 'your schema'} (${answer.dialect}).`),
    unchecked ? h('p.message.unchecked', {}, h('span.muted', {}, `${unchecked.line}:${unchecked.column} `), h('code.pointer', {}, unchecked.instance_pointer || '(root)'), ` ${unchecked.message}`) : '',
    // The core's note, as the CLI prints it, when the document is another kind of file.
    answer.kind_mismatch ? h('p.muted.kind-mismatch', {}, `Note: ${answer.kind_mismatch}.`) : '',
    answer.issues.length ? issueList(instance, answer.issues) : '',
    answer.issues.length ? h('div.row', {}, copyButton('Copy failures as JSON', () => JSON.stringify(answer.issues, null, 2), 'Failures copied')) : '',
  );
}

/** One failing file of a batch: its name, why it fails, and a button that opens it in the editor. */
function batchFailure(file, failure) {
  const open = h('button.link', { type: 'button', onclick: () => (instance.text = file.text), title: `Open ${file.name} in the editor, with its failures marked` }, file.name);
  if (failure.error) {
    const { message, line, column } = failure.error;
    return h('li.diag.error', {}, h('div.diag-head', {}, open, h('span.muted', {}, 'not JSON')), h('p.message', {}, `${line}:${column}: ${message}`));
  }
  if (failure.unchecked) {
    const { message, line, column } = failure.unchecked;
    return h('li.diag.warning', {}, h('div.diag-head', {}, open, h('span.muted', {}, 'could not check')), h('p.message', {}, `${line}:${column}: ${message}`));
  }
  return h(
    'li.diag.error',
    {},
    h('div.diag-head', {}, open, h('span.muted', {}, plural(failure.issues.length, 'failure'))),
    failure.kind_mismatch ? h('p.muted.kind-mismatch', {}, `Note: ${failure.kind_mismatch}.`) : '',
    h(
      'ul.batch-issues',
      {},
      failure.issues.slice(0, 3).map((issue) =>
        h('li', {}, h('span.muted', {}, `${issue.line}:${issue.column} `), h('code.pointer', {}, issue.instance_pointer || '(root)'), ` ${issue.keyword}: ${issue.message}`),
      ),
      failure.issues.length > 3 ? h('li.muted', {}, `and ${failure.issues.length - 3} more: open the file to see them`) : '',
    ),
  );
}

/** Validates every picked file against the chosen schema and lists the ones that fail. */
async function runBatch(files) {
  results.changed();
  const ticket = results.ticket();
  const against = options.builtin ?? 'your schema';
  let answer;
  const started = performance.now();
  try {
    answer = await withProgress(core, `Validating ${plural(files.length, 'document')}`, () =>
      validateBatch(
        core,
        files.map((file) => file.text),
        options.builtin ? '' : schema.text,
        validateRequest(),
      ),
    );
  } catch (error) {
    if (isCancelled(error)) return results.cancelled(ticket);
    throw error;
  }
  if (ticket !== results.ticket()) return;
  schema.mark([]);
  if (!answer.ok) return showRefusal(ticket, answer);
  const took = performance.now() - started;
  const failing = answer.failures.map((failure) => ({ file: files[failure.index], failure }));
  results.show(
    ticket,
    answer.invalid === 0 && !answer.unchecked
      ? status('ok', `All ${plural(files.length, 'document')} are valid against ${against} (${answer.dialect}).`)
      : answer.invalid === 0
        ? status('warn', `${answer.unchecked} of ${plural(files.length, 'document')} could not be checked against ${against} (${answer.dialect}); ${answer.valid} valid.`)
        : status('bad', `${answer.invalid} of ${plural(files.length, 'document')} ${answer.invalid === 1 ? 'fails' : 'fail'} against ${against} (${answer.dialect}); ${answer.valid} valid${answer.unchecked ? `, ${answer.unchecked} could not be checked` : ''}.`),
    h('p.muted.batch-took', { dataset: { workers: answer.workers } }, `Validated in ${took < 1000 ? `${Math.round(took)} ms` : `${(took / 1000).toFixed(1)} s`} by ${plural(answer.workers, 'worker')} on this device.`),
    failing.length ? longList('ol.diagnostics.batch-failures', failing, ({ file, failure }) => batchFailure(file, failure), { what: 'failing documents' }) : '',
    failing.length
      ? h(
          'div.row',
          {},
          copyButton('Copy failures as JSON', () => JSON.stringify(failing.map(({ file, failure }) => ({ file: file.name, error: failure.error, kind_mismatch: failure.kind_mismatch, unchecked: failure.unchecked, issues: failure.issues })), null, 2), 'Failures copied'),
        )
      : '',
  );
}

export async function setUpSchemaView() {
  const root = document.getElementById('schema-root');
  const { schemas } = await core.call('builtin_schemas');
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
  // Picking many files says a batch is coming: the extra workers load the core meanwhile.
  const openMany = [...openFilesButton('schema-open-many', 'Open many…', '.json,application/json', runBatch), ...openFilesButton('schema-open-folder', 'Open folder…', '', runBatch, true)];
  for (const button of [openMany[0], openMany[2]]) button.addEventListener('click', () => warmBatchWorkers(core));
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
      h('div.pane', {}, h('div.row', {}, h('span.muted', {}, 'Document'), ...openFileButton('schema-open-instance', 'Open…', '.json,application/json', (text) => (instance.text = text)), ...openMany), instanceHost),
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
