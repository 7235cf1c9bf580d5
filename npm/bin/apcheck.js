#!/usr/bin/env node
// `npx apcheck COMMAND …`: the Rust CLI's `check`, `rules`, `explain`,
// `check-snapshot`, `drift` and `changes` on the wasm core, with the same root
// search, disk reading, renderers and exit codes: 0 clean, 1 findings at error
// level (or warnings with `--deny warnings`), 2 usage or I/O failure. For
// `check`, the configuration (`apcheck.toml` or `[tool.apcheck]` found above
// each PATH, or `--config`), the rule flags and the baseline apply as in the
// Rust CLI. The other commands exit 2 naming the native binary.
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
const { Package, renderCheck } = await import('../node.js');
const wasm = await import('../wasm/apcheck.js');
const { findRoots, ioMessage, loadSettings, readPackage, relativeTo } = await import('../disk.js');

const EXIT_CLEAN = 0;
const EXIT_FINDINGS = 1;
const EXIT_FAILURE = 2;

const USAGE = `Usage: apcheck check [OPTIONS] <PATH>...

Check plugin roots (or folders of them) as a conformant client would load them.
This is the npm build of apcheck (the Rust core in WebAssembly); it has the commands
check, rules, explain, check-snapshot, drift and changes (\`apcheck COMMAND --help\`).

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

const FORMATS = CHOICES.format;
const DOC_FORMATS = ['text', 'json'];

/**
 * The flags and positional arguments of a command beyond `check`: `flags`
 * maps each `--name` to its choices (or `null` for any value), with
 * `defaults`; `positionals` is [least, most]. As clap, `--name=value` or `--name value`.
 */
function parseCommand(args, flags, defaults, [least, most], missing) {
  const options = { ...defaults, positionals: [] };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === '--') {
      options.positionals.push(...args.slice(i + 1));
      break;
    }
    const flag = arg.match(/^--([a-z-]+)(?:=(.*))?$/);
    if (flag && flag[1] in flags) {
      const [, name, inline] = flag;
      const value = inline ?? args[++i];
      if (value === undefined) return { error: `a value is required for '--${name}'` };
      if (flags[name] && !flags[name].includes(value)) {
        return { error: `invalid value '${value}' for '--${name}' [possible values: ${flags[name].join(', ')}]` };
      }
      options[name] = value;
    } else if (arg.startsWith('-') && arg !== '-') {
      return { error: `unexpected argument '${arg}' found` };
    } else {
      options.positionals.push(arg);
    }
  }
  if (options.positionals.length < least) return { error: `the following required arguments were not provided: ${missing}` };
  if (options.positionals.length > most) return { error: `unexpected argument '${options.positionals[most]}' found` };
  return { options };
}

/** A file's text as the Rust CLI's `read_text` reads it: UTF-8, or the message to fail with. */
function readText(path) {
  let bytes;
  try {
    bytes = readFileSync(path);
  } catch (error) {
    throw new Error(`cannot read ${path}: ${ioMessage(error)}`);
  }
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    throw new Error(`cannot read ${path}: stream did not contain valid UTF-8`);
  }
}

/** The plugin root at `path` as the Rust CLI's `read_package` reads it, or the message to fail with. */
function readRoot(path) {
  try {
    return readPackage(path);
  } catch (error) {
    throw new Error(`cannot read plugin root ${path}: ${error.code === 'ENOTDIR' && !error.syscall ? error.message : ioMessage(error)}`);
  }
}

/** Prints a `{output, exit}` answer of the wasm's CLI exports and returns its exit code. */
function emit(answer) {
  const { output, exit } = JSON.parse(answer);
  process.stdout.write(output);
  return exit;
}

/** A command: its usage line, flags and arguments, and what it does with them. */
function command(synopsis, flags, defaults, counts, missing, run) {
  const help = `Usage: apcheck ${synopsis}\n\nThis is the npm build of apcheck; the flags and output are the native CLI's.`;
  return (args) => {
    if (args.includes('--help') || args.includes('-h')) {
      process.stdout.write(`${help}\n`);
      return EXIT_CLEAN;
    }
    const { options, error } = parseCommand(args, flags, defaults, counts, missing);
    if (error) {
      process.stderr.write(`error: ${error}\n\n${help}\n`);
      return EXIT_FAILURE;
    }
    try {
      return run(options);
    } catch (failure) {
      return fail(failure.message);
    }
  };
}

const REPORT_FLAGS = { format: FORMATS, color: CHOICES.color };
const REPORT_DEFAULTS = { format: 'text', color: 'auto' };

const COMMANDS = {
  rules: command('rules [--format <text|json>]', { format: DOC_FORMATS }, { format: 'text' }, [0, 0], '', ({ format }) => {
    process.stdout.write(wasm.cliRules(format === 'json'));
    return EXIT_CLEAN;
  }),
  explain: command('explain <CODE> [--format <text|json>]', { format: DOC_FORMATS }, { format: 'text' }, [1, 1], '<CODE>', ({ format, positionals: [code] }) => {
    const text = wasm.cliExplain(code, format === 'json');
    if (text === undefined) return fail(`no rule named \`${code}\`; \`apcheck rules\` lists them`);
    process.stdout.write(text);
    return EXIT_CLEAN;
  }),
  'check-snapshot': command(
    'check-snapshot [--plugin <DIR>] [--format <FORMAT>] [--color <WHEN>] <FILES>...',
    { ...REPORT_FLAGS, plugin: null },
    REPORT_DEFAULTS,
    [1, Infinity],
    '<FILES>...',
    ({ format, color, plugin, positionals: files }) => {
      const pkg = plugin === undefined ? new Package() : readRoot(plugin);
      try {
        const texts = files.map(readText);
        return emit(pkg.tree.cliCheckSnapshot(plugin !== undefined, files, texts, format, colorEnabled(color), process.cwd()));
      } finally {
        pkg.free();
      }
    },
  ),
  drift: command('drift [--format <FORMAT>] [--color <WHEN>] <SNAPSHOT> <PLUGIN>', REPORT_FLAGS, REPORT_DEFAULTS, [2, 2], '<SNAPSHOT> <PLUGIN>', ({ format, color, positionals: [snapshot, plugin] }) => {
    const text = readText(snapshot);
    const pkg = readRoot(plugin);
    try {
      return emit(pkg.tree.cliDrift(snapshot, text, plugin, format, colorEnabled(color), process.cwd()));
    } finally {
      pkg.free();
    }
  }),
  changes: command('changes [--format <FORMAT>] [--color <WHEN>] <OLD> <NEW>', REPORT_FLAGS, REPORT_DEFAULTS, [2, 2], '<OLD> <NEW>', ({ format, color, positionals: [old, current] }) => {
    const [oldText, newText] = [readText(old), readText(current)];
    return emit(wasm.cliChanges(old, oldText, current, newText, format, colorEnabled(color), process.cwd()));
  }),
};

/** The native CLI's commands this build does not run: each needs the file system, processes or the network beyond reading files. */
const NATIVE_ONLY = ['config', 'fmt', 'validate', 'diff', 'snapshot', 'call', 'lsp', 'new', 'port', 'completions', 'man'];
/** `check`'s flags that write or print fixes or a baseline: the native CLI's. */
const NATIVE_CHECK_FLAGS = /^(--(fix|unsafe-fixes|diff|baseline-write|statistics|output-file|quiet|exit-zero|connect)(=|$)|-[oq]$)/;

function needsNative(what) {
  return fail(
    `${what} needs the native apcheck binary; this npm build (the core in WebAssembly) runs check, rules, explain, ` +
      'check-snapshot, drift and changes. Install the native one with `cargo install apcheck --locked`, ' +
      '`pipx install apcheck` (or pip install apcheck), or a release binary.',
  );
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
    const native = rest.find((arg) => NATIVE_CHECK_FLAGS.test(arg));
    if (native) return needsNative(`\`check ${native.split('=')[0]}\``);
    return check(rest);
  }
  if (command in COMMANDS) return COMMANDS[command](rest);
  if (NATIVE_ONLY.includes(command)) return needsNative(`\`${command}\``);
  return usage(command === undefined ? 'a command is required' : `unrecognized subcommand '${command}'`);
}

process.exitCode = main(process.argv.slice(2));
