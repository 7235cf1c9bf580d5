// Rendering a PackageReport (the JSON of `apcheck check --format json`): the
// verdict as loading hops, the components with their states, the findings.
// The SARIF and Markdown downloads are rendered by the core, as the CLI's are.

import { ruleByCode } from './rules.js';
import { request } from './client.js';
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

function stateBadge(state) {
  const [tone, words] = STATES[state] ?? ['none', state];
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
 * (it reveals the span in an editor).
 */
export function diagnosticsList(diagnostics, onOpen) {
  if (diagnostics.length === 0) return h('p.clean', {}, 'No findings.');
  // Hundreds of findings (a monorepo's stray SKILL.md files) would hold up the page: show the rest on request.
  return longList('ol.diagnostics', diagnostics, (diagnostic) => diagnosticItem(diagnostic, onOpen), { first: 100, what: 'more findings' });
}

function diagnosticItem(diagnostic, onOpen) {
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
    diagnostic.hint ? h('p.hint', {}, 'Fix: ', diagnostic.hint) : null,
    diagnostic.spec ? h('p.spec', {}, diagnostic.spec) : null,
  );
}

function verdictLine(report) {
  const { summary, plugin } = report;
  const counts = [plural(summary.errors, 'error'), plural(summary.warnings, 'warning'), plural(summary.infos, 'info', 'infos')].join(', ');
  if (plugin.state === 'rejected') {
    return { tone: 'bad', title: 'Rejected: a conformant client loads nothing from this package', counts };
  }
  const name = [plugin.name, plugin.version].filter(Boolean).join(' ');
  const partly = summary.skills_skipped + summary.servers_invalid > 0 || report.mcp.state === 'disabled';
  return {
    tone: summary.errors ? 'bad' : partly || summary.warnings ? 'warn' : 'ok',
    title: `Loaded ${name}${partly ? ', with parts skipped' : ''}`,
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
          h('td', {}, server.type ?? '—'),
          h('td', {}, stateBadge(server.state)),
          h('td', {}, server.reason ?? ''),
        ),
      ),
    ),
  ));
}

function hop(number, title, state, detail, ...extra) {
  return h('li.hop', { 'data-hop': title }, h('div.hop-head', {}, h('span.hop-n', {}, number), h('strong', {}, title), stateBadge(state)), detail ? h('p.muted', {}, detail) : null, extra);
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
 * The whole verdict. `source` says where the package came from ('drop' shows
 * the symlink note); `onOpen(diagnostic)` jumps to a finding.
 */
export function renderReport({ report, reportId }, { source, entryCount, onOpen, fileBase = 'apcheck-report' }) {
  // The core renders SARIF and Markdown when one is asked for, from this very report.
  const rendered = (format) => request('render', { format, reportId });
  const verdict = verdictLine(report);
  const manifestReason = report.plugin.state === 'rejected'
    ? report.diagnostics.find((d) => d.severity === 'error' && (d.file === 'plugin.json' || d.file === null))?.message ?? 'plugin.json is missing or invalid.'
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
    h(
      'div.row.actions',
      {},
      downloadButton('JSON', `${fileBase}.json`, () => JSON.stringify(report, null, 2)),
      downloadButton('SARIF', `${fileBase}.sarif`, () => rendered('sarif'), 'application/sarif+json'),
      downloadButton('Markdown', `${fileBase}.md`, () => rendered('markdown'), 'text/markdown'),
      copyButton('Copy Markdown', () => rendered('markdown'), 'Report copied'),
      copyButton('Copy JSON', () => JSON.stringify(report, null, 2), 'Report copied'),
    ),
    h(
      'ol.hops',
      { 'aria-label': 'Loading hops' },
      hop(
        1,
        'Root',
        'loaded',
        `${report.root}${entryCount !== undefined ? ` · ${plural(entryCount, 'entry', 'entries')} read` : ''}`,
        source === 'drop'
          ? h('p.note', {}, 'A browser cannot see symlinks: a dropped or picked folder has them followed or left out silently, so §4.1 containment is not checked here. Run ', h('code', {}, `apcheck check ${report.root}`), ' for that.')
          : null,
      ),
      hop(2, 'Manifest (plugin.json)', report.plugin.state, manifestReason),
      hop(3, 'Skills', report.skills.state, skillsDetail(report), skillsTable(report.skills.entries)),
      hop(4, 'MCP servers (mcp.json)', report.mcp.state, mcpDetail(report), serversTable(report.mcp.servers)),
    ),
    h('h2.findings-title', {}, `Findings (${report.diagnostics.length})`),
    diagnosticsList(report.diagnostics, onOpen),
  );
}
