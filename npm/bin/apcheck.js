#!/usr/bin/env node
// `npx apcheck check PATH…`: the Rust CLI's `check` on the wasm core, with the
// same root search, disk reading, renderers and exit codes: 0 clean, 1
// findings at error level (or warnings with `--deny warnings`), 2 usage or I/O failure.
// The configuration (`apcheck.toml` or `[tool.apcheck]` found above each PATH,
// or `--config`), the rule flags and the baseline apply as in the Rust CLI.
import { readFileSync } from 'node:fs';
import module from 'node:module';
import { isAbsolute } from 'node:path';
import { setFlagsFromString } from 'node:v8';

// Before the package loads (so the imports below are dynamic): the process is
// the CLI's own, so it may tune how Node compiles. The wasm is validated
// function by function as each is first called, not all 3 MB before the
// first call (a run calls a fraction of them); Node 22.1+ also caches the
// compiled JavaScript between runs.
setFlagsFromString('--wasm-lazy-validation');
module.enableCompileCache?.();
const { renderCheck } = await import('../node.js');
const { findRoots, ioMessage, loadSettings, readPackage, relativeTo } = await import('../disk.js');

const EXIT_CLEAN = 0;
const EXIT_FINDINGS = 1;
const EXIT_FAILURE = 2;

const USAGE = `Usage: apcheck check [OPTIONS] <PATH>...

Check plugin roots (or folders of them) as a conformant client would load them.
This is the npm build of apcheck (the Rust core in WebAssembly); it has the \`check\` command.

Options:
  --format <text|json|sarif|github|markdown>  [default: text]
  --deny warnings           Fail (exit 1) on warnings too, not only on errors
  --color <auto|always|never>  [default: auto]
  --baseline <FILE>         Hide the findings this baseline records (overrides \`baseline\` in the configuration)
  --config <FILE>           Use this configuration file instead of the apcheck.toml or pyproject.toml found above each path
  --select <CODES>          Show only these rules, by code or prefix (\`AP2,AP314\`); replaces the configuration's \`select\`
  --extend-select <CODES>   Show these rules too, by code or prefix
  --ignore <CODES>          Hide these rules, by code or prefix
  --severity <CODE=LEVEL>   Set a rule's severity: \`AP205=error\`, \`AP314=off\``;

function fail(message) {
  process.stderr.write(`apcheck: ${message}\n`);
  return EXIT_FAILURE;
}

function usage(message) {
  process.stderr.write(`error: ${message}\n\n${USAGE}\n`);
  return EXIT_FAILURE;
}

const CHOICES = {
  format: ['text', 'json', 'sarif', 'github', 'markdown'],
  deny: ['warnings'],
  color: ['auto', 'always', 'never'],
};

/** The flags that take a file, and the repeatable rule flags (comma-separated lists but `--severity`, as clap splits them). */
const FILES = { baseline: 'baseline', config: 'config' };
const RULE_FLAGS = { select: 'select', 'extend-select': 'extendSelect', ignore: 'ignore', severity: 'severity' };

function parse(args) {
  const options = { format: 'text', deny: undefined, color: 'auto', paths: [], select: [], extendSelect: [], ignore: [], severity: [] };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === '--') {
      options.paths.push(...args.slice(i + 1));
      break;
    }
    const flag = arg.match(/^--(format|deny|color|baseline|config|select|extend-select|ignore|severity)(?:=(.*))?$/);
    if (flag) {
      const [, name, inline] = flag;
      const value = inline ?? args[++i];
      if (value === undefined) return { error: `a value is required for '--${name}'` };
      if (name in CHOICES) {
        if (!CHOICES[name].includes(value)) {
          return { error: `invalid value '${value}' for '--${name}' [possible values: ${CHOICES[name].join(', ')}]` };
        }
        options[name] = value;
      } else if (name in FILES) {
        options[FILES[name]] = value;
      } else {
        options[RULE_FLAGS[name]].push(...(name === 'severity' ? [value] : value.split(',')));
      }
    } else if (arg.startsWith('-') && arg !== '-') {
      return { error: `unexpected argument '${arg}' found` };
    } else {
      options.paths.push(arg);
    }
  }
  if (options.paths.length === 0) return { error: 'the following required arguments were not provided: <PATH>...' };
  return { options };
}

/** The baseline file `name` from the configuration in `base`, as Rust's `Path::join` names it. */
function inBase(base, name) {
  return isAbsolute(name) ? name : base.endsWith('/') ? `${base}${name}` : `${base}/${name}`;
}

function colorEnabled(choice) {
  if (choice !== 'auto') return choice === 'always';
  // https://no-color.org: any non-empty value turns colour off.
  return Boolean(process.stdout.isTTY) && !process.env.NO_COLOR;
}

function check(args) {
  const { options, error } = parse(args);
  if (error) return usage(error);
  const roots = [];
  const loaded = [];
  let anyCollection = false;
  try {
    for (const path of options.paths) {
      const settings = loadSettings(path, options);
      loaded.push(settings);
      const found = findRoots(path, settings);
      anyCollection ||= found.collection;
      roots.push(...found.roots.map((root) => ({ ...root, loaded: settings, relative: relativeTo(settings.base, root.dir) })));
    }
    const checked = [];
    let ioFailed = false;
    for (const root of roots) {
      try {
        checked.push({ root, name: root.name, package: readPackage(root.dir) });
      } catch (error) {
        process.stderr.write(`apcheck: ${root.name}: ${error.code === 'ENOTDIR' && !error.syscall ? error.message : ioMessage(error)}\n`);
        ioFailed = true;
      }
    }
    try {
      return render(options, checked, anyCollection, ioFailed);
    } finally {
      for (const { package: pkg } of checked) pkg.free();
    }
  } catch (error) {
    return fail(error.message);
  } finally {
    for (const { settings } of loaded) settings.free();
  }
}

function render(options, checked, anyCollection, ioFailed) {
  const named = (root) => {
    const file = options.baseline ?? (root.loaded.settings.baseline && inBase(root.loaded.base, root.loaded.settings.baseline));
    if (file === undefined) return undefined;
    try {
      return { file, text: readFileSync(file, 'utf8') };
    } catch (error) {
      throw new Error(`${file}: ${ioMessage(error)}`);
    }
  };
  const withSettings = checked.map(({ root, name, package: pkg }) => ({
    name,
    package: pkg,
    settings: root.loaded.settings,
    relativeRoot: root.relative,
    baseline: named(root),
  }));
  if (checked.length === 0 && ioFailed) return EXIT_FAILURE;
  const rendered = renderCheck(withSettings, {
    format: options.format,
    single: options.paths.length === 1 && !anyCollection,
    color: colorEnabled(options.color),
    sarifBase: process.cwd(),
    denyWarnings: options.deny === 'warnings',
  });
  process.stdout.write(rendered.output);
  return ioFailed ? EXIT_FAILURE : rendered.fails ? EXIT_FINDINGS : EXIT_CLEAN;
}

function main(argv) {
  const [command, ...rest] = argv;
  if (command === '--version' || command === '-V') {
    const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
    process.stdout.write(`apcheck ${version}\n`);
    return EXIT_CLEAN;
  }
  if (command === '--help' || command === '-h' || command === 'help') {
    process.stdout.write(`${USAGE}\n`);
    return EXIT_CLEAN;
  }
  if (command === 'check') {
    if (rest.includes('--help') || rest.includes('-h')) {
      process.stdout.write(`${USAGE}\n`);
      return EXIT_CLEAN;
    }
    return check(rest);
  }
  return usage(command === undefined ? 'a command is required' : `unrecognized subcommand '${command}'`);
}

process.exitCode = main(process.argv.slice(2));
