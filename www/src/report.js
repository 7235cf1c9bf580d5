// Rendering a PackageReport (the JSON of `apcheck check --format json`): the
// verdict as loading hops, the components with their states, the findings.
// The JSON, SARIF and Markdown downloads are rendered by the core, as the CLI's are.

import { codeSpans, ruleByCode } from './rules.js';
import { lane } from './client.js';
import { copyButton, downloadButton, h, longList, plural } from './util.js';

// Every state word the report can hold, said plainly: "not there" is never
// confused with "there but not usable".
const STATES = {
  loaded: ['ok', 'loaded'],
  rejected: ['bad', 'there, not usable: rejected'],
  absent: ['none', 'not there'],
  valid: ['ok', 'loaded'],
  invalid: ['bad', 'there, not usable'],
  disabled: ['warn', 'there, disabled'],
  'not-loaded': ['none', 'not looked at (manifest rejected)'],
  discovered: ['ok', 'discovered'],
  skipped: ['bad', 'skipped'],
};

/** The skills hop's badge: a usable skills/ whose every skill is skipped loads nothing, and says so. */
function skillsState(report) {
  const { skills_discovered: discovered, skills_skipped: skipped } = report.summary;
  if (report.skills.state === 'valid' && discovered === 0 && skipped > 0) return ['bad', 'every skill skipped'];
  if (report.skills.state === 'valid' && skipped > 0) return ['warn', 'loaded, some skipped'];
  return null;
}

function stateBadge(state, override = null) {
  const [tone, words] = override ?? STATES[state] ?? ['none', state];
  return h(`span.state.${tone}`, { 'data-state': state }, words);
}

function severityBadge(severity) {
  return h(`span.sev.${severity}`, {}, severity);
}

/** A rule code that opens its doc in the Rules view. */
function ruleLink(code) {
  const rule = ruleByCode(code);
  return h('a.code', { href: `#rules/${code}`, title: rule ? `${rule.name}: ${rule.summary}` : code }, code);
}

function location(diagnostic) {
  if (!diagnostic.file) return null;
  const position = diagnostic.line ? `:${diagnostic.line}:${diagnostic.column ?? 1}` : '';
  return `${diagnostic.file}${position}`;
}

/**
 * The findings as a list; `onOpen(diagnostic)` runs when a location is clicked
 * (it reveals the span in an editor). With `onFix(diagnostic)`, a finding whose
 * rule offers a fix (the core's edits, `diagnostic.fix`) gets an "Apply fix" button.
 */
export function diagnosticsList(diagnostics, onOpen, onFix) {
  if (diagnostics.length === 0) return h('p.clean', {}, 'No findings.');
  // Hundreds of findings (a monorepo's stray SKILL.md files) would hold up the page: show the rest on request.
  return longList('ol.diagnostics', diagnostics, (diagnostic) => diagnosticItem(diagnostic, onOpen, onFix), { first: 100, what: 'more findings' });
}

function fixButton(diagnostic, onFix) {
  const { message, applicability } = diagnostic.fix;
  // An unsafe fix guesses what was meant (as `--unsafe-fixes` says): the button says so.
  const label = applicability === 'safe' ? 'Apply fix' : 'Apply fix (unsafe: review it)';
  return h('p.fix', {}, h('button.small', { type: 'button', 'data-action': 'apply-fix', title: message, onclick: () => onFix(diagnostic) }, label), ' ', h('span.muted', {}, message));
}

function diagnosticItem(diagnostic, onOpen, onFix) {
  return h(
    `li.diag.${diagnostic.severity}`,
    {},
    h(
      'div.diag-head',
      {},
      severityBadge(diagnostic.severity),
      ruleLink(diagnostic.code),
      location(diagnostic)
        ? h('button.link.where', { type: 'button', onclick: () => onOpen?.(diagnostic), title: 'Show in the editor' }, location(diagnostic))
        : null,
      diagnostic.pointer ? h('code.pointer', {}, diagnostic.pointer) : null,
    ),
    h('p.message', {}, diagnostic.message),
    // Checked past a rejected manifest so one pass shows everything: said plainly, as the CLI says it.
    diagnostic.unreached ? h('p.muted.unreached', {}, 'Found in a component that a client does not reach until the manifest loads (plugin.json is rejected, §5.2).') : null,
    // Hints are written for the CLI too; a `--flag` in one is an option this page does not have.
    diagnostic.hint
      ? h('p.hint', {}, 'Fix: ', codeSpans(diagnostic.hint), diagnostic.hint.includes('`--') ? ' (Those are apcheck CLI options; this page has no such setting.)' : '')
      : null,
    diagnostic.fix && onFix ? fixButton(diagnostic, onFix) : null,
    diagnostic.spec ? h('p.spec', {}, diagnostic.spec) : null,
  );
}

function verdictLine(report, linksUnseen) {
  const { summary, plugin } = report;
  // As the CLI's text summary says it: the page has no configuration or
  // baseline, but a SKILL.md's apcheck-ignore comments hide findings here too.
  const hidden = summary.suppressed ? ` (${summary.suppressed} hidden by apcheck-ignore comments)` : '';
  const counts = [plural(summary.errors, 'error'), plural(summary.warnings, 'warning'), plural(summary.infos, 'info', 'infos')].join(', ') + hidden;
  if (plugin.state === 'rejected') {
    return { tone: 'bad', title: 'Rejected: a conformant client loads nothing from this package', counts };
  }
  const name = [plugin.name, plugin.version].filter(Boolean).join(' ');
  const partly = summary.skills_skipped + summary.servers_invalid > 0 || report.mcp.state === 'disabled';
  // A browser hides symlinks: a folder's containment (§4.1) was not checked, so the verdict is not a plain "Loaded".
  const caveat = linksUnseen ? ', symlinks not checked here' : '';
  return {
    tone: summary.errors ? 'bad' : partly || summary.warnings || linksUnseen ? 'warn' : 'ok',
    title: `Loaded ${name}${partly ? ', with parts skipped' : ''}${caveat}`,
    counts,
  };
}

/** A long component table starts folded, with a count in its summary. */
function foldable(count, what, table) {
  if (count <= 12) return table;
  return h('details', {}, h('summary', {}, `Show all ${count} ${what}`), table);
}

function skillsTable(entries) {
  if (entries.length === 0) return null;
  return foldable(entries.length, 'skills', h(
    'table.components',
    {},
    h('thead', {}, h('tr', {}, ['Skill dir', 'name', 'state', 'reason', 'tokens (metadata / body)'].map((t) => h('th', { scope: 'col' }, t)))),
    h(
      'tbody',
      {},
      entries.map((skill) =>
        h(
          'tr',
          {},
          h('td', {}, h('code', {}, skill.dir)),
          h('td', {}, skill.name ?? '—'),
          h('td', {}, stateBadge(skill.state)),
          h('td', {}, skill.reason ?? ''),
          h('td.num', {}, `${skill.tokens.metadata} / ${skill.tokens.body}`),
        ),
      ),
    ),
  ));
}

function serversTable(servers) {
  if (servers.length === 0) return null;
  return foldable(servers.length, 'servers', h(
    'table.components',
    {},
    h('thead', {}, h('tr', {}, ['Server', 'type', 'state', 'reason'].map((t) => h('th', { scope: 'col' }, t)))),
    h(
      'tbody',
      {},
      servers.map((server) =>
        h(
          'tr',
          {},
          h('td', {}, h('code', {}, server.id)),
          h('td.word', {}, server.type ?? '—'),
          h('td', {}, stateBadge(server.state)),
          h('td', {}, server.reason ?? ''),
        ),
      ),
    ),
  ));
}

function hop(number, title, state, detail, ...extra) {
  const [badge, override] = Array.isArray(state) ? state : [state, null];
  return h('li.hop', { 'data-hop': title }, h('div.hop-head', {}, h('span.hop-n', {}, number), h('strong', {}, title), stateBadge(badge, override)), detail ? h('p.muted', {}, detail) : null, extra);
}

function skillsDetail(report) {
  const { state } = report.skills;
  if (state === 'absent') return 'No skills/ directory. Fine: skills are optional (§6.2).';
  if (state === 'invalid') return 'skills is present but not a usable directory inside the root: no skill is discovered (§6.2, §4.1).';
  if (state === 'not-loaded') return 'Not looked at: a rejected manifest stops every component (§5.2).';
  return `${plural(report.summary.skills_discovered, 'skill')} discovered, ${report.summary.skills_skipped} skipped (a skipped skill is skipped alone, §7.1).`;
}

function mcpDetail(report) {
  const { state } = report.mcp;
  if (state === 'absent') return 'No mcp.json. Fine: MCP servers are optional (§6.2).';
  if (state === 'disabled') return 'mcp.json is there but MCP is off for this plugin; skills go on (§6.2, §7.2.2).';
  if (state === 'not-loaded') return 'Not looked at: a rejected manifest stops every component (§5.2).';
  return `${plural(report.summary.servers_valid, 'server')} valid, ${report.summary.servers_invalid} invalid (an invalid entry is skipped alone, §7.2.2).`;
}

/**
 * The download buttons of a checked folder. The core renders each format when
 * it is asked for, from the reports of check `reportId` (as the CLI prints
 * them for the folder), not on every keystroke.
 */
function downloads(reportId, fileBase) {
  const rendered = (format) => lane('check').request('render', { format, reportId });
  return h(
    'div.row.actions',
    {},
    downloadButton('JSON', `${fileBase}.json`, () => rendered('json')),
    downloadButton('SARIF', `${fileBase}.sarif`, () => rendered('sarif'), 'application/sarif+json'),
    downloadButton('Markdown', `${fileBase}.md`, () => rendered('markdown'), 'text/markdown'),
    copyButton('Copy Markdown', () => rendered('markdown'), 'Report copied'),
    copyButton('Copy JSON', () => rendered('json'), 'Report copied'),
  );
}

/**
 * The verdict on a folder, as the core's `checkFolder` gives it: one root's
 * report, or for a collection (a marketplace repository) a summary table and
 * one report per plugin. `onOpen(diagnostic)` gets file paths relative to the
 * folder given.
 */
export function renderFolder({ reports, collection, reportId }, { root, source, entryCount, onOpen, onFix, fileBase }) {
  if (!collection) {
    return h('div.folder', { dataset: { root } }, renderReport(reports[0], { source, entryCount, onOpen, onFix, reportId, fileBase }));
  }
  const dirOf = (report) => report.root.slice(root.length + 1);
  const failing = reports.filter((report) => report.summary.errors > 0).length;
  return h(
    'div.folder',
    { dataset: { root } },
    h(
      `div.verdict.${failing ? 'bad' : 'ok'}`,
      {},
      h('p.verdict-title', {}, `${root}: a collection of ${plural(reports.length, 'plugin')}`),
      h('p.verdict-counts', {}, `${failing} with errors. Every directory with its own plugin.json is checked as its own root, as \`apcheck check\` does (hidden directories and node_modules are skipped).`),
    ),
    downloads(reportId, fileBase),
    h(
      'table.components.summary',
      {},
      h('thead', {}, h('tr', {}, ['Plugin root', 'verdict', 'errors', 'warnings', 'skills', 'servers'].map((t) => h('th', { scope: 'col' }, t)))),
      h(
        'tbody',
        {},
        reports.map((report) =>
          h(
            'tr',
            {},
            h('td', {}, h('a', { href: `#check-root-${encodeURIComponent(dirOf(report))}`, onclick: (event) => (event.preventDefault(), document.getElementById(`check-root-${dirOf(report)}`)?.scrollIntoView()) }, h('code', {}, dirOf(report)))),
            h('td', {}, stateBadge(report.plugin.state)),
            h('td.num', {}, String(report.summary.errors)),
            h('td.num', {}, String(report.summary.warnings)),
            h('td.num', {}, String(report.summary.skills_discovered)),
            h('td.num', {}, String(report.summary.servers_valid)),
          ),
        ),
      ),
    ),
    reports.map((report) =>
      h(
        'details.plugin-report',
        { id: `check-root-${dirOf(report)}`, open: report.summary.errors > 0 || reports.length <= 3 },
        h('summary', {}, h('code', {}, dirOf(report)), ' ', stateBadge(report.plugin.state)),
        renderReport(report, { source, onOpen: (diagnostic) => onOpen?.({ ...diagnostic, file: diagnostic.file && `${dirOf(report)}/${diagnostic.file}` }) }),
      ),
    ),
  );
}

/**
 * One root's whole verdict. `source` says where the package came from ('drop'
 * shows the symlink note); `onOpen(diagnostic)` jumps to a finding;
 * `onFix(diagnostic)` applies a finding's fix (pasted files only: a dropped
 * package is shown read-only);
 * `reportId` (the check it came from) adds the download buttons.
 */
export function renderReport(report, { source, entryCount, onOpen, onFix, reportId, fileBase = 'apcheck-report' }) {
  // A folder read by the browser: its symlinks were followed or left out unseen (a zip's are read from the archive).
  const linksUnseen = source === 'drop';
  const verdict = verdictLine(report, linksUnseen);
  const manifestReason = report.plugin.state === 'rejected'
    ? report.plugin.reason
    : `${report.plugin.name ?? ''} ${report.plugin.version ?? ''} · Agent Plugins ${report.plugin.spec ?? '?'}`;
  return h(
    'div.report',
    {},
    h(
      `div.verdict.${verdict.tone}`,
      {},
      h('p.verdict-title', {}, verdict.title),
      h('p.verdict-counts', {}, verdict.counts),
      report.plugin.description ? h('p.muted', {}, report.plugin.description) : null,
    ),
    reportId ? downloads(reportId, fileBase) : null,
    h(
      'ol.hops',
      { 'aria-label': 'Loading hops' },
      hop(
        1,
        'Root',
        linksUnseen ? ['loaded', ['warn', 'read, symlinks not seen']] : 'loaded',
        `${report.root}${entryCount !== undefined ? ` · ${plural(entryCount, 'file')} read` : ''}`,
        source === 'drop'
          ? h('p.note', {}, 'A browser cannot see symlinks: a dropped or picked folder has them followed or left out silently, so §4.1 containment is not checked here. Run ', h('code', {}, 'apcheck check DIR'), ' on the folder for that.')
          : null,
      ),
      hop(2, 'Manifest (plugin.json)', report.plugin.state, manifestReason),
      hop(3, 'Skills', [report.skills.state, skillsState(report)], skillsDetail(report), skillsTable(report.skills.entries)),
      hop(4, 'MCP servers (mcp.json)', report.mcp.state, mcpDetail(report), serversTable(report.mcp.servers)),
    ),
    h('h2.findings-title', {}, `Findings (${report.diagnostics.length})`),
    diagnosticsList(report.diagnostics, onOpen, onFix),
  );
}
