// The tool-call form: a field per property of the tool's
// `inputSchema`, as MCP Inspector builds it, kept in sync both ways with the
// arguments' JSON editor. The form only edits and shows. The core validates
// (`snapshot_call`, the same check the JSON editor gets) and files each
// violation under its argument's JSON Pointer; the form shows those messages
// at their fields.
// - Strings, numbers and integers are text inputs: what is typed goes into the
//   JSON as typed (a number as its digits, so nothing is rounded), and a value
//   that does not fit gets the core's message instead of being refused.
// - An optional field that is not set is absent from the arguments, never
//   false or "" (Remove takes a set one out again).
// - What a field cannot express (arrays, objects, several types, `$ref`,
//   `anyOf`…, or a value of another type than the schema's) is edited as JSON
//   in the field, and the field says why.

import { h } from './util.js';
import { visible } from './visible.js';

const NUMBER = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/;
const FIELD_TYPES = { string: 'string', number: 'number', integer: 'number', boolean: 'boolean' };
const COMBINERS = ['$ref', 'anyOf', 'oneOf', 'allOf', 'not', 'if'];
const isScalar = (value) => value === null || ['string', 'number', 'boolean'].includes(typeof value);
const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
const token = (name) => `/${name.replace(/~/g, '~0').replace(/\//g, '~1')}`;
const typeName = (value) => (Array.isArray(value) ? 'an array' : value === null ? 'null' : JSON.isRawJSON(value) ? 'a number' : typeof value === 'object' ? 'an object' : `a ${typeof value}`);

/** JSON text parsed with every number kept as written, so a round trip through the form never rounds one. */
function parseKeepingNumbers(text) {
  return JSON.parse(text, (key, value, context) => (typeof value === 'number' ? JSON.rawJSON(context.source) : value));
}

/** The field a property schema gets: `{kind, values}` for a widget, or `{kind: 'json', why}`. */
function widgetOf(schema) {
  if (!schema || typeof schema !== 'object') return { kind: 'json', why: 'a schema that is not an object' };
  const values = Array.isArray(schema.enum) ? schema.enum : 'const' in schema ? [schema.const] : null;
  if (values?.length && values.every(isScalar)) return { kind: 'enum', values };
  const combiner = COMBINERS.find((key) => key in schema);
  if (combiner) return { kind: 'json', why: combiner };
  const { type } = schema;
  if (FIELD_TYPES[type]) return { kind: FIELD_TYPES[type] };
  return { kind: 'json', why: Array.isArray(type) ? 'several types' : type === 'array' || type === 'object' ? `an ${type}` : type ? `type ${type}` : 'a schema without a type' };
}

/** Whether `value` (undefined when absent) can be shown by a widget of `kind`. */
function fits(widget, value) {
  if (value === undefined || widget.kind === 'json') return true;
  if (widget.kind === 'enum') return widget.values.some((option) => same(option, value));
  return widget.kind === 'number' ? JSON.isRawJSON(value) : typeof value === widget.kind;
}

/** What the schema asks of a value, as the form shows it beside the field. */
function constraints(schema, kind) {
  const shown = [];
  const bound = (word, limit, exclusive) => limit !== undefined && shown.push(`${exclusive ? word[1] : word[0]} ${limit}`);
  if (kind === 'number') {
    if (schema.type === 'integer') shown.push('integer');
    // Draft 4 writes an exclusive bound as a boolean beside minimum/maximum.
    const [exMin, exMax] = [schema.exclusiveMinimum, schema.exclusiveMaximum];
    bound(['≥', '>'], typeof exMin === 'number' ? exMin : schema.minimum, exMin !== undefined && exMin !== false);
    bound(['≤', '<'], typeof exMax === 'number' ? exMax : schema.maximum, exMax !== undefined && exMax !== false);
    if (schema.multipleOf !== undefined) shown.push(`multiple of ${schema.multipleOf}`);
  }
  if (kind === 'string') {
    if (schema.minLength !== undefined) shown.push(`at least ${schema.minLength} characters`);
    if (schema.maxLength !== undefined) shown.push(`at most ${schema.maxLength} characters`);
    if (schema.pattern !== undefined) shown.push(`matches ${schema.pattern}`);
    if (schema.format !== undefined) shown.push(`format ${schema.format}`);
  }
  if (schema.default !== undefined) shown.push(`default ${JSON.stringify(schema.default)}`);
  return shown.join(' · ');
}

/**
 * The form. `onArguments(text)` gets the arguments' new JSON text after each
 * edit in the form. `setSchema` builds it for a tool, `fromText` follows the
 * JSON editor, `showIssues` shows the core's answer, `checking` marks the
 * shown messages as older than the inputs (aria-busy until the answer).
 */
export function callForm({ onArguments }) {
  const element = h('div.call-form', { id: 'call-form' });
  let schema;
  let tool = null;
  let schemaKey;
  let args = {};
  let stale = null;
  let ownText = null;
  let fields = [];
  let general;
  let lastIssues = [];

  function emit() {
    ownText = `${JSON.stringify(args, null, 2)}\n`;
    onArguments(ownText);
  }

  function set(name, value) {
    Object.defineProperty(args, name, { value, writable: true, enumerable: true, configurable: true });
    emit();
  }

  function remove(name) {
    delete args[name];
    emit();
    render();
    element.querySelector(`[data-name="${CSS.escape(name)}"] .control`)?.focus();
  }

  function field(name, propertySchema, required, index) {
    const id = `call-field-${index}`;
    const value = Object.hasOwn(args, name) ? args[name] : undefined;
    let widget = widgetOf(propertySchema);
    // A value outside an enum keeps the enum's select, the value shown and marked: the fix is picking another.
    const outside = widget.kind === 'enum' && !fits(widget, value);
    if (!outside && !fits(widget, value)) widget = { kind: 'json', why: `${typeName(value)}, which the schema does not expect here` };
    const shown = (option) => (typeof option === 'string' ? option : JSON.stringify(option));
    const record = { name, pointer: token(name), local: null, outside: outside ? `${shown(value)} is not one of the values the schema allows.` : null, control: null, error: h('p.field-error', { id: `${id}-error` }) };
    const common = { id, class: 'control', 'aria-describedby': `${id}-hint ${id}-error`, 'aria-required': required && widget.kind !== 'boolean' ? 'true' : null };
    const removeButton = h('button.small', { type: 'button', hidden: required || value === undefined, 'aria-label': `Remove ${name} from the arguments`, onclick: () => remove(name) }, 'Remove');
    const put = (next) => {
      removeButton.hidden = required;
      set(name, next);
    };
    let control;
    if (widget.kind === 'boolean') {
      control = h('input', { ...common, type: 'checkbox', checked: value === true, onchange: () => put(control.checked) });
      // Not set is neither true nor false.
      control.indeterminate = value === undefined;
    } else if (widget.kind === 'enum') {
      const options = widget.values.map((option, at) => h('option', { value: String(at), selected: same(option, value) }, shown(option)));
      const unset = value === undefined || !required ? [h('option', { value: '', selected: value === undefined }, '(not set)')] : [];
      const kept = outside ? [h('option', { value: 'outside', selected: true, disabled: true }, `${shown(value)} (not allowed)`)] : [];
      control = h('select', { ...common, onchange: () => ((record.outside = null), control.value === '' ? remove(name) : put(widget.values[Number(control.value)])) }, kept, unset, options);
    } else if (widget.kind === 'json') {
      control = h('textarea', { ...common, rows: 3, spellcheck: 'false', placeholder: '(not set)' });
      control.value = value === undefined ? '' : JSON.stringify(value, null, 2);
      control.addEventListener('input', () => {
        if (control.value.trim() === '') return remove(name);
        try {
          record.local = null;
          put(parseKeepingNumbers(control.value));
        } catch (error) {
          // The arguments keep the last value that parsed until this one does.
          record.local = `Not JSON yet (${error.message}); the arguments keep the last value that parsed.`;
          showIssues(lastIssues);
        }
      });
    } else {
      control = h('input', { ...common, type: 'text', spellcheck: 'false', placeholder: required ? null : '(not set)' });
      control.value = value === undefined ? '' : widget.kind === 'number' ? value.rawJSON : value;
      control.addEventListener('input', () => {
        const text = control.value.trim();
        if (widget.kind === 'number') {
          if (text === '') return remove(name);
          // Not a number: sent as the text typed, so the core says what is wrong with it.
          put(NUMBER.test(text) ? JSON.rawJSON(text) : control.value);
        } else put(control.value);
      });
    }
    record.control = control;
    const about = [propertySchema?.title, propertySchema?.description].filter((text) => typeof text === 'string').join(': ');
    const rule = widget.kind === 'json' ? `As JSON: the form has no field for ${widget.why}.` : constraints(propertySchema, widget.kind);
    fields.push(record);
    return h(
      `div.field.${widget.kind}`,
      { dataset: { name } },
      h('label', { for: id }, h('code', {}, name), required ? h('span.req', { 'aria-hidden': 'true' }, ' *') : null, required ? h('span.visually-hidden', {}, ' (required)') : null),
      h('div.row', {}, control, removeButton),
      h('p.muted.field-hint', { id: `${id}-hint` }, [about, rule].filter(Boolean).join(' — ')),
      record.error,
    );
  }

  function render() {
    fields = [];
    general = h('ul.field-error', { id: 'call-form-errors' });
    if (!schema) {
      element.replaceChildren(h('p.muted', {}, 'Pick a tool of a snapshot: its inputSchema makes the form.'));
      return;
    }
    const properties = schema.properties && typeof schema.properties === 'object' ? schema.properties : {};
    const names = Object.keys(properties);
    const required = new Set(Array.isArray(schema.required) ? schema.required : []);
    const extra = Object.keys(args).filter((name) => !Object.hasOwn(properties, name));
    element.replaceChildren(
      h(
        'fieldset',
        { disabled: stale !== null },
        h('legend', {}, `Arguments of ${tool}`),
        stale ? h('p.status.warn', { role: 'status' }, `Out of date: ${stale}. Fix the JSON below; the form follows it.`) : null,
        names.length
          ? h('p.muted', {}, '* required. The form writes the JSON below as you type, and the core checks it.')
          : h('p.muted', {}, 'The inputSchema names no properties: edit the arguments as JSON below.'),
        general,
        names.map((name, index) => field(name, properties[name], required.has(name), index)),
        extra.length ? h('p.muted', {}, `Also in the arguments, not among the schema's properties (edit them as JSON): ${extra.join(', ')}.`) : null,
      ),
    );
    showIssues(lastIssues);
  }

  /** The core's violations ([{pointer, message}]): each at its field, the rest above the fields. */
  function showIssues(issues) {
    lastIssues = issues;
    element.removeAttribute('aria-busy');
    const unplaced = [];
    const byField = new Map(fields.map((record) => [record, record.local ? [record.local] : []]));
    for (const { pointer, message } of issues) {
      const record = fields.find((candidate) => pointer === candidate.pointer || pointer.startsWith(`${candidate.pointer}/`));
      if (record) byField.get(record).push(pointer === record.pointer ? message : `At ${pointer.slice(record.pointer.length)}: ${message}`);
      else unplaced.push(pointer ? `At ${pointer}: ${message}` : message);
    }
    for (const [record, messages] of byField) {
      if (record.outside && !messages.length) messages.push(record.outside);
      record.error.textContent = visible(messages.join(' '));
      record.control.setAttribute('aria-invalid', String(messages.length > 0));
    }
    general?.replaceChildren(...unplaced.map((message) => h('li', {}, message)));
  }

  return {
    element,
    /** Builds the form for `toolName`'s `inputSchema` (none: no tool), unless it is built already. */
    setSchema(inputSchema, toolName) {
      const key = JSON.stringify([inputSchema, toolName]);
      if (key === schemaKey) return;
      schemaKey = key;
      schema = inputSchema && typeof inputSchema === 'object' ? inputSchema : null;
      tool = toolName;
      lastIssues = [];
      render();
    },
    /** The JSON editor's text changed: the form shows it, or says it cannot. */
    fromText(text) {
      if (text === ownText) return;
      ownText = null;
      let parsed;
      try {
        parsed = parseKeepingNumbers(text);
        stale = parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) ? null : `the arguments are ${typeName(parsed)}, not an object`;
      } catch (error) {
        stale = `the arguments are not JSON (${error.message})`;
      }
      if (stale === null) args = parsed;
      lastIssues = [];
      render();
    },
    showIssues,
    /** The inputs changed: the messages shown are about to be replaced. */
    checking() {
      element.setAttribute('aria-busy', 'true');
    },
  };
}
