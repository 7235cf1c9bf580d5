#!/usr/bin/env node
// `npx apcheck COMMAND …`: the Rust CLI's `check`, `rules`, `explain`,
// `config`, `snapshot` (without `--connect`), `check-snapshot`, `drift`,
// `changes`, `call`, `fmt`, `diff`, `validate`, `new` and `port` on the wasm core,
// with the same root search, disk reading, renderers and exit codes: 0 clean,
// 1 findings at error level (or warnings with `--deny warnings`), 2 usage or
// I/O failure. For `check`, the configuration (`apcheck.toml` or
// `[tool.apcheck]` found above each PATH, or `--config`), the rule flags and
// the baseline apply as in the Rust CLI, and `--fix`, `--unsafe-fixes` and
// `--diff` write or print the core's fixes as it does. `new` and `port` write
// the core's files with the native CLI's refusals. The other commands (`call`,
// `lsp`, `completions`, `man`, `--connect` and `--format FORMAT:FILE`) run on
// the native binary of the platform package (bin/native.js), or exit 2 saying
// how to get one.
import { readFileSync, realpathSync, statSync, writeFileSync } from 'node:fs';
import module from 'node:module';
import { basename, dirname, isAbsolute, join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { nativeMissing, nativeNeed, runNative } from './native.js';

// Before the wasm loads: a command for the native binary does not pay for it.
const argv = process.argv.slice(2);
const need = nativeNeed(argv);
const native = need === null ? null : runNative(argv);
if (native?.status !== undefined) process.exit(native.status);

// Before the package loads (so the imports below are dynamic): the process is
// the CLI's own, so it may tune how Node compiles. The wasm is validated
// function by function as each is first called, not all 3 MB before the
// first call (a run calls a fraction of them); Node 22.1+ also caches the
// compiled JavaScript between runs. A function is optimized (TurboFan) only
// once it has run a long while: V8's default budget sent hundreds of
// functions to be optimized in the first 100 ms of a 500-skill check, which
// doubled the CPU time of a run that ends before most of them are used, on
// a core the check needs (on 2 cores, 0.50 s of CPU against 0.25 s).
// A check that runs for seconds still gets its hot loops optimized.
setFlagsFromString('--wasm-lazy-validation');
setFlagsFromString('--wasm-tiering-budget=200000000');
module.enableCompileCache?.();
const { Package, renderCheck } = await import('../node.js');
const wasm = await import('../wasm/apcheck.js');
const { findRoots, ioMessage, loadSettings, readPackage, relativeTo, writeFixed, writeNew, writePackage } = await import('../disk.js');

const EXIT_CLEAN = 0;
const EXIT_FINDINGS = 1;
const EXIT_FAILURE = 2;

const USAGE = `Usage: apcheck check [OPTIONS] <PATH>...

Check plugin roots (or folders of them) as a conformant client would load them.
This is the npm build of apcheck (the Rust core in WebAssembly); it has the commands
check, rules, explain, config, snapshot (offline), check-snapshot, drift, changes, call, fmt,
diff, validate, new and port (\`apcheck COMMAND --help\`). lsp, completions, man, --connect and
--format FORMAT:FILE run on the native binary that npm installs beside it where one is built.

Options:
      --format <FORMAT>           text, json, sarif, github or markdown [default: text]
  -o, --output-file <FILE>        Write the output that would go to standard output to FILE instead
      --statistics                Print how many findings each rule made (text or json), instead of the findings
  -q, --quiet                     Print the findings and nothing else: no summary lines, no notes on standard error
      --exit-zero                 Exit 0 even when findings or a rejected plugin would fail the run (an incomplete
                                  check, exit 1, and a usage or I/O failure, exit 2, still fail)
      --deny <LEVEL>              warnings: fail (exit 1) on warnings too, not only on errors
      --color <WHEN>              auto, always or never [default: auto]
      --baseline <FILE>           Hide the findings this baseline records (overrides \`baseline\` in the configuration)
      --baseline-write <FILE>     Record every finding of this check in FILE as the baseline, and exit 0
                                  (2, and nothing written, when the check is incomplete)
      --config <FILE>             Use this configuration file instead of the apcheck.toml or pyproject.toml found
                                  above each path
      --select <CODES>            Show only these rules, by code or prefix (\`AP2,AP314\`); replaces the
                                  configuration's \`select\`
      --extend-select <CODES>     Show these rules too, by code or prefix
      --ignore <CODES>            Hide these rules, by code or prefix
      --severity <CODE=LEVEL>     Set a rule's severity: \`AP205=error\`, \`AP314=off\`
      --fix                       Apply the safe fixes rules offer, then report what is left
      --unsafe-fixes              Apply unsafe fixes too (implies --fix): each guesses what was meant, so review them
      --diff                      Print the fixes as a unified diff instead of writing them (exit 1 if there is any)
      --extensions-namespace <NAMESPACE>
                                  The reverse-domain namespace under \`extensions\` that the unsafe fix moves a
                                  vendor \`hooks\` key to (\`com.example.client\`)`;

/** A usage or I/O failure: `apcheck: MESSAGE` on stderr, escaped by the core as the Rust CLI escapes it, exit 2. */
function fail(message) {
  process.stderr.write(wasm.cliLine(message));
  return EXIT_FAILURE;
}

/**
 * Help and usage errors are clap's words in the native CLI. With the platform
 * package's binary here, it says them (the same arguments help or fail the
 * same way there), byte for byte; without it, SAY_OURS says the same in this
 * build's shorter text, with the same exit code.
 */
function inClapsWords(sayOurs) {
  const native = runNative(argv);
  return native?.status !== undefined ? native.status : sayOurs();
}

function usage(message) {
  return inClapsWords(() => {
    process.stderr.write(`error: ${message}\n\n${USAGE}\n`);
    return EXIT_FAILURE;
  });
}

function printHelp(text) {
  return inClapsWords(() => {
    process.stdout.write(`${text}\n`);
    return EXIT_CLEAN;
  });
}

const CHOICES = {
  format: ['text', 'json', 'sarif', 'github', 'markdown'],
  deny: ['warnings'],
  color: ['auto', 'always', 'never'],
};

/** The flags that take a file, and the repeatable rule flags (comma-separated lists but `--severity`, as clap splits them). */
const FILES = {
  baseline: 'baseline',
  config: 'config',
  'output-file': 'outputFile',
  'baseline-write': 'baselineWrite',
  'extensions-namespace': 'extensionsNamespace',
};
/** The flags without a value, and their short forms. */
const SWITCHES = { statistics: 'statistics', quiet: 'quiet', 'exit-zero': 'exitZero', fix: 'fix', 'unsafe-fixes': 'unsafeFixes', diff: 'diff' };
const SHORT = { '-o': '--output-file', '-q': '--quiet' };
const RULE_FLAGS = { select: 'select', 'extend-select': 'extendSelect', ignore: 'ignore', severity: 'severity' };

function parse(args) {
  const options = {
    format: 'text',
    deny: undefined,
    color: 'auto',
    paths: [],
    select: [],
    extendSelect: [],
    ignore: [],
    severity: [],
    statistics: false,
    quiet: false,
    exitZero: false,
    fix: false,
    unsafeFixes: false,
    diff: false,
  };
  for (let i = 0; i < args.length; i++) {
    // `-oFILE` and `-q`, as clap reads short flags.
    let arg = args[i];
    if (arg.startsWith('-o') && arg.length > 2) arg = `--output-file=${arg.slice(arg[2] === '=' ? 3 : 2)}`;
    else if (arg in SHORT) arg = SHORT[arg];
    if (arg === '--') {
      options.paths.push(...args.slice(i + 1));
      break;
    }
    const switched = arg.match(/^--(statistics|quiet|exit-zero|fix|unsafe-fixes|diff)$/);
    if (switched) {
      options[SWITCHES[switched[1]]] = true;
      continue;
    }
    const flag = arg.match(
      /^--(format|deny|color|baseline-write|baseline|config|output-file|select|extend-select|ignore|severity|extensions-namespace)(?:=(.*))?$/,
    );
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
  if (options.baseline !== undefined && options.baselineWrite !== undefined) {
    return { error: "the argument '--baseline <FILE>' cannot be used with '--baseline-write <FILE>'" };
  }
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
  // Refused before anything is read, as the Rust CLI's `output_targets` does.
  if (options.statistics && !['text', 'json'].includes(options.format)) {
    return fail('--statistics prints a table (text) or json, on standard output or to --output-file');
  }
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
    // Fixes were written before the failure (a baseline that cannot be read): said first, as the Rust CLI says it.
    if (error.fixed !== undefined) process.stderr.write(error.fixed.summary);
    return fail(error.message);
  } finally {
    for (const { settings } of loaded) settings.free();
  }
}

function render(options, checked, anyCollection, ioFailed) {
  const named = (root) => {
    // `--baseline-write` records every finding: no baseline is read.
    if (options.baselineWrite !== undefined) return undefined;
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
    // Read when the check asks, after any fixes are written, as the Rust CLI reads it.
    get baseline() {
      return named(root);
    },
  }));
  const fixing = options.fix || options.unsafeFixes || options.diff;
  // Nothing to render; `--baseline-write` still records (no findings) and the fixes still say what they did, as the Rust CLI does.
  if (checked.length === 0 && ioFailed && options.baselineWrite === undefined && !fixing) return EXIT_FAILURE;
  const rendered = renderCheck(withSettings, {
    // What the fixes are and say is the core's; the files are written here, into each root.
    fix: fixing
      ? {
          unsafe: options.unsafeFixes,
          diff: options.diff,
          // A diff on a terminal is escaped line by line; redirected, it applies as it is.
          terminal: Boolean(process.stdout.isTTY),
          write: (index, file, text) => writeFixed(checked[index].root.dir, file, text),
        }
      : undefined,
    format: options.format,
    single: options.paths.length === 1 && !anyCollection,
    // A file never gets terminal colours.
    color: options.outputFile === undefined && colorEnabled(options.color),
    sarifBase: process.cwd(),
    denyWarnings: options.deny === 'warnings',
    quiet: options.quiet,
    statistics: options.statistics,
    exitZero: options.exitZero,
    baselineWrite: options.baselineWrite,
    // The CLI prints the output, never the reports as data.
    [Symbol.for('apcheck.noReports')]: true,
  });
  if (options.diff) {
    // `--diff` writes nothing and goes no further: the diff on standard output, the count on standard error.
    process.stdout.write(rendered.output);
    process.stderr.write(rendered.fixed.summary);
    return ioFailed ? EXIT_FAILURE : rendered.fails ? EXIT_FINDINGS : EXIT_CLEAN;
  }
  // `apcheck: applied N fixes in M files` (nothing with `--quiet`).
  if (rendered.fixed !== undefined) process.stderr.write(rendered.fixed.summary);
  if (checked.length === 0 && ioFailed && options.baselineWrite === undefined) return EXIT_FAILURE;
  if (rendered.baseline !== undefined) {
    const { refused, text, recorded } = rendered.baseline;
    if (refused !== undefined) {
      process.stderr.write(refused);
      return EXIT_FAILURE;
    }
    try {
      writeFileSync(options.baselineWrite, text);
    } catch (error) {
      return fail(`${options.baselineWrite}: ${ioMessage(error)}`);
    }
    if (!options.quiet) process.stderr.write(recorded);
    return ioFailed ? EXIT_FAILURE : EXIT_CLEAN;
  }
  if (options.outputFile !== undefined) {
    try {
      writeFileSync(options.outputFile, rendered.output);
    } catch (error) {
      return fail(`${options.outputFile}: ${ioMessage(error)}`);
    }
  } else {
    process.stdout.write(rendered.output);
  }
  return ioFailed ? EXIT_FAILURE : rendered.fails ? EXIT_FINDINGS : EXIT_CLEAN;
}

const FORMATS = CHOICES.format;
const DOC_FORMATS = ['text', 'json'];

/** A flag without a value (`--formats`), a repeatable one (`--ref A --ref B`), and a repeatable one of two values (`--http-server ID URL`), in `parseCommand`'s `flags`. */
const SWITCH = Symbol('switch');
const MANY = Symbol('many');
const PAIR = Symbol('pair');

/**
 * The flags and positional arguments of a command beyond `check`: `flags`
 * maps each `--name` to its choices (or `null` for any value, `SWITCH`,
 * `MANY`, `PAIR`), with `defaults`; `positionals` is [least, most]; `shorts`
 * maps a short flag to its long name (`{ '-o': 'output' }`). As clap,
 * `--name=value` or `--name value`, `-o value` or `-ovalue`.
 */
function parseCommand(args, flags, defaults, [least, most], missing, shorts = {}) {
  const options = { ...defaults, positionals: [] };
  for (let i = 0; i < args.length; i++) {
    let arg = args[i];
    const short = Object.keys(shorts).find((flag) => arg.startsWith(flag));
    if (short !== undefined) arg = arg === short ? `--${shorts[short]}` : `--${shorts[short]}=${arg.slice(arg[2] === '=' ? 3 : 2)}`;
    if (arg === '--') {
      options.positionals.push(...args.slice(i + 1));
      break;
    }
    const flag = arg.match(/^--([a-z-]+)(?:=(.*))?$/);
    if (flag && flag[1] in flags) {
      const [, name, inline] = flag;
      if (flags[name] === SWITCH) {
        if (inline !== undefined) return { error: `unexpected value '${inline}' for '--${name}' found; no more were expected` };
        options[name] = true;
        continue;
      }
      if (flags[name] === PAIR) {
        const pair = inline === undefined ? args.slice(i + 1, i + 3) : [inline, args[i + 1]];
        i += inline === undefined ? 2 : 1;
        if (pair.length < 2 || pair.includes(undefined)) return { error: `2 values required for '--${name}'` };
        options[name] = [...options[name], ...pair];
        continue;
      }
      const value = inline ?? args[++i];
      if (value === undefined) return { error: `a value is required for '--${name}'` };
      if (Array.isArray(flags[name]) && !flags[name].includes(value)) {
        return { error: `invalid value '${value}' for '--${name}' [possible values: ${flags[name].join(', ')}]` };
      }
      if (flags[name] === MANY) options[name] = [...options[name], value];
      else options[name] = value;
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

/** A JSON document as the Rust CLI's `read_input` reads it (`-`: standard input), at most `limit` bytes, or the message to fail with. */
function readInput(path, limit) {
  const stdin = path === '-';
  let bytes;
  try {
    // A regular file over the limit is refused before it is read.
    const stat = stdin ? undefined : statSync(path);
    if (stat?.isFile() && stat.size > limit) throw new TooLarge();
    bytes = readFileSync(stdin ? 0 : path);
  } catch (error) {
    if (error instanceof TooLarge) throw new Error(wasm.cliTooLarge(path, limit));
    throw new Error(stdin ? `cannot read standard input: ${ioMessage(error)}` : `cannot read ${path}: ${ioMessage(error)}`);
  }
  if (bytes.length > limit) throw new Error(wasm.cliTooLarge(path, limit));
  // Throws the Rust CLI's error for text that is not UTF-8.
  return wasm.cliText(path, bytes);
}

class TooLarge extends Error {}

/** A usage error found after parsing (flags that conflict or are missing): said as the parser's are. */
class UsageError extends Error {}

/** `--color` for what goes to stderr: on a terminal when `auto`, as the Rust CLI decides it. */
function stderrColor(choice) {
  if (choice !== 'auto') return choice === 'always';
  return Boolean(process.stderr.isTTY) && !process.env.NO_COLOR;
}

/** Prints a `{stdout, stderr, exit}` answer of the wasm's CLI exports and returns its exit code. */
function emitStreams(answer) {
  const { stdout, stderr, exit } = JSON.parse(answer);
  process.stderr.write(stderr);
  process.stdout.write(stdout);
  return exit;
}

/** Prints a `{output, exit}` answer of the wasm's CLI exports and returns its exit code. */
function emit(answer) {
  const { output, exit } = JSON.parse(answer);
  process.stdout.write(output);
  return exit;
}

/** Prints a `{stdout, stderr, exit}` answer of a command that wrote files: what it wrote first, then what it says about it. */
function emitWritten(answer) {
  const { stdout, stderr, exit } = typeof answer === 'string' ? JSON.parse(answer) : answer;
  process.stdout.write(stdout);
  process.stderr.write(stderr);
  return exit;
}

/** A command: its usage line, flags and arguments, and what it does with them. */
function command(synopsis, flags, defaults, counts, missing, run, shorts = {}) {
  const help = `Usage: apcheck ${synopsis}\n\nThis is the npm build of apcheck; the flags and output are the native CLI's.`;
  return (args) => {
    if (args.includes('--help') || args.includes('-h')) return printHelp(help);
    const misuse = (message) =>
      inClapsWords(() => {
        process.stderr.write(`error: ${message}\n\n${help}\n`);
        return EXIT_FAILURE;
      });
    const { options, error } = parseCommand(args, flags, defaults, counts, missing, shorts);
    if (error) return misuse(error);
    try {
      return run(options);
    } catch (failure) {
      if (failure instanceof UsageError) return misuse(failure.message);
      return fail(failure.message);
    }
  };
}

const REPORT_FLAGS = { format: FORMATS, color: CHOICES.color };
const REPORT_DEFAULTS = { format: 'text', color: 'auto' };
const DIFF_FORMATS = ['text', 'json', 'patch', 'merge', 'unified'];
const STDIN_NOTE = '`-` reads standard input (whole; the size limit is checked after reading).';

const DIFF_HELP = `diff [OPTIONS] <A> <B>

Structural diff of two JSON documents: paths, JSON Patch, merge patch or unified text.
Exit 0 when equal, 1 when different, 2 on usage or input errors. ${STDIN_NOTE}

Options:
  --format <text|json|patch|merge|unified>  [default: text]
  --array-key <[PATH=]KEY>  Match array elements by a member: \`name\` for every array, or per path
                            \`/tools=name\`, \`/servers/*/tools=server+name\`. Repeatable; tried in order
  --no-default-keys         Do not match /tools, /result/tools, /skills by name and /mcpServers by id
  --ignore <POINTER>        Leave out what this pointer names; \`*\` matches any member or index. Repeatable
  --color <auto|always|never>  [default: auto] (unified diffs here colour lines, not the changed words)`;

const VALIDATE_HELP = `validate (--schema <SCHEMA> | --builtin <BUILTIN>) [OPTIONS] <INSTANCES>...

Validate JSON documents against a JSON Schema (a file or a built-in), every error at its line.
${STDIN_NOTE}

Options:
  --schema <SCHEMA>         The JSON Schema (dialect from its \`$schema\`, 2020-12 when absent)
  --builtin <BUILTIN>       A built-in schema by name; \`--builtin list\` names them all
  --ref <FILE>              Another schema file that \`$ref\`s may point to. Repeatable
  --formats                 Assert \`format\` keywords (email, uri, date-time, …); off by default
  --format <text|json|sarif|github|markdown>  [default: text]
  --color <auto|always|never>  [default: auto]
  --max-input-mib <MIB>     Refuse a schema or document larger than this many MiB (exit 2) [default: 256]`;

const FMT_HELP = `fmt [OPTIONS] <FILE>...

Pretty-print or minify JSON, keeping numbers and strings as written. ${STDIN_NOTE}

Options:
  --indent <INDENT>      Indentation per level: 2, 4 or tab [default: 2]
  --minify               No whitespace at all (still ends with a newline)
  --sort-keys            Order object members by key (Unicode code points); by default key order is kept
  --jsonc                Accept comments and trailing commas (JSONC); the output is plain JSON without them
  --write                Write the result back to FILE instead of standard output
  --check                Print nothing; exit 1 if FILE is not already formatted this way
  --max-input-mib <MIB>  Refuse an input larger than this many MiB (exit 2) [default: 256]`;

/** `apcheck fmt`: each file read, formatted by the wasm, printed or written back; the worst exit code. */
function fmt({ indent, minify, 'sort-keys': sortKeys, jsonc, write, check, 'max-input-mib': mib, positionals: files }) {
  if (write && check) throw new UsageError("the argument '--write' cannot be used with '--check'");
  if (minify && indent !== undefined) throw new UsageError("the argument '--minify' cannot be used with '--indent <INDENT>'");
  if (indent !== undefined && !['2', '4', 'tab'].includes(indent)) {
    throw new UsageError(`invalid value '${indent}' for '--indent <INDENT>': expected 2, 4 or tab`);
  }
  const limit = mibLimit(mib);
  const refused = wasm.cliFmtRefusal(files.length, write, check);
  if (refused !== undefined) {
    process.stderr.write(refused);
    return EXIT_FAILURE;
  }
  const flags = JSON.stringify({ indent: indent ?? '2', minify, sortKeys, jsonc, check, stderrColor: stderrColor('auto') });
  let worst = EXIT_CLEAN;
  for (const file of files) {
    let text;
    try {
      text = readInput(file, limit);
    } catch (error) {
      worst = Math.max(worst, fail(error.message));
      continue;
    }
    const { stdout, stderr, exit } = JSON.parse(wasm.cliFmt(file, text, flags));
    process.stderr.write(stderr);
    let code = exit;
    if (exit === EXIT_CLEAN && !check) {
      if (write && file !== '-') {
        try {
          writeFileSync(file, stdout);
        } catch (error) {
          code = fail(`cannot write ${file}: ${ioMessage(error)}`);
        }
      } else {
        process.stdout.write(stdout);
      }
    }
    worst = Math.max(worst, code);
  }
  return worst;
}

/** `--max-input-mib` in bytes, as clap parses a u64. */
function mibLimit(text) {
  if (!/^\+?[0-9]+$/.test(text)) throw new UsageError(`invalid value '${text}' for '--max-input-mib <MIB>': invalid digit found in string`);
  return Number(text.replace('+', '')) * 2 ** 20;
}

/** `apcheck validate`: the schema, then the documents, read as the Rust CLI reads them, and the wasm's verdict. */
function validate({ schema, builtin, ref: refs, formats, format, color, 'max-input-mib': mib, positionals: documents }) {
  if (schema !== undefined && builtin !== undefined) throw new UsageError("the argument '--schema <SCHEMA>' cannot be used with '--builtin <BUILTIN>'");
  if (refs.length > 0 && builtin !== undefined) throw new UsageError("the argument '--ref <FILE>' cannot be used with '--builtin <BUILTIN>'");
  if (builtin === undefined) {
    const missing = [schema === undefined && '  --schema <SCHEMA>', documents.length === 0 && '  <INSTANCES>...'].filter(Boolean);
    if (missing.length > 0) throw new UsageError(`the following required arguments were not provided:\n${missing.join('\n')}`);
  }
  const limit = mibLimit(mib);
  const flags = { builtin, formats, format, color: colorEnabled(color), stderrColor: stderrColor(color), sourceRoot: process.cwd() };
  // Nothing is read for `--builtin list` or without documents, nor the documents when the schema could not be.
  const texts = documents.map(() => '');
  const failures = documents.map(() => '');
  if (builtin !== 'list' && documents.length > 0) {
    if (builtin === undefined) {
      try {
        Object.assign(flags, { schemaName: schema, schemaText: readInput(schema, limit) });
        Object.assign(flags, { refNames: refs, refTexts: refs.map((file) => readInput(file, limit)) });
      } catch (error) {
        flags.schemaError = error.message;
      }
    }
    if (flags.schemaError === undefined) {
      documents.forEach((document, index) => {
        try {
          texts[index] = readInput(document, limit);
        } catch (error) {
          failures[index] = error.message;
        }
      });
    }
  }
  return emitStreams(wasm.cliValidate(documents, texts, failures, JSON.stringify(flags)));
}

const SNAPSHOT_HELP = `snapshot [OPTIONS] <PLUGIN>

Build the capability snapshot a client would hold after loading a plugin (offline: \`--connect\`
needs the native binary).

Options:
  --tools <SERVER=FILE>     A \`tools/list\` result for one server (JSON-RPC response, bare result, array
                            of pages, or an initialize + tools/list capture); repeatable
  --failed <SERVER=REASON>  Record that a valid server failed to connect, with the reason the client
                            reported (Agent Plugins §7.2.2 rule 5); repeatable
  -o, --output <FILE>       Write the snapshot here instead of standard output`;

/** `apcheck snapshot PLUGIN` without `--connect`: the root and the `--tools` files read here, the rest the core's. */
function snapshot({ tools, failed, output, positionals: [plugin] }) {
  const pkg = readRoot(plugin);
  try {
    const { stdout, stderr, exit } = JSON.parse(pkg.tree.cliSnapshot(plugin, tools, failed, readText, colorEnabled('auto')));
    process.stderr.write(stderr);
    if (exit === EXIT_FAILURE || stdout === '') return exit;
    if (output === undefined) {
      process.stdout.write(stdout);
      return exit;
    }
    try {
      writeFileSync(output, stdout);
    } catch (error) {
      return fail(`cannot write ${output}: ${ioMessage(error)}`);
    }
    return exit;
  } finally {
    pkg.free();
  }
}

const CONFIG_HELP = `config --show [OPTIONS] [PATH]

Show the configuration (apcheck.toml, pyproject.toml, flags) a check of PATH (default \`.\`) would use,
merged with the flags given, and where each value came from.

Options:
  --show                    Print the merged configuration with the origin of each value
  --config <FILE>           Use this configuration file instead of the one found above PATH
  --select <CODES>          Show only these rules, by code or prefix (\`AP2,AP314\`)
  --extend-select <CODES>   Show these rules too, by code or prefix
  --ignore <CODES>          Hide these rules, by code or prefix
  --severity <CODE=LEVEL>   Set a rule's severity: \`AP205=error\`, \`AP314=off\`
  --extensions-namespace <NAMESPACE>  The namespace the unsafe fix moves a vendor \`hooks\` key to`;

/** `apcheck config --show [PATH]`: the settings found and merged as `check` merges them, shown by the core. */
function config({ show, config: file, select, 'extend-select': extendSelect, ignore, severity, 'extensions-namespace': extensionsNamespace, positionals: [path = '.'] }) {
  if (!show) throw new UsageError('the following required arguments were not provided:\n  --show');
  // Comma-separated lists, as clap splits them; `--severity` is one value each.
  const split = (values) => values.flatMap((value) => value.split(','));
  const { settings } = loadSettings(path, { config: file, select: split(select), extendSelect: split(extendSelect), ignore: split(ignore), severity, extensionsNamespace });
  try {
    process.stdout.write(settings.show());
    return EXIT_CLEAN;
  } finally {
    settings.free();
  }
}

const NEW_HELP = `new [OPTIONS] <NAME>

Write a new plugin package that checks clean: manifest, skills, mcp.json. NAME is the plugin's name and
the new directory (which must not exist or be empty); a path names the directory, its last part the plugin.

Options:
  --skill <NAME>              Add the skill \`skills/NAME/SKILL.md\` (repeatable)
  --stdio-server <ID> <CMD>   Add a local server to mcp.json, its command line split as a shell would. Repeatable
  --http-server <ID> <URL>    Add a remote Streamable HTTP server to mcp.json. Repeatable`;

/** `apcheck new PATH`: the core decides the files and what is said; they are written here. */
function newPackage({ skill, 'stdio-server': stdioServers, 'http-server': httpServers, positionals: [path] }) {
  const answer = JSON.parse(wasm.cliNew(path, skill, stdioServers, httpServers));
  if (answer.refused !== undefined) return emitStreams(JSON.stringify(answer.refused));
  writeNew(path, answer.files);
  return emitWritten(answer.written);
}

const PORT_HELP = `port [OPTIONS] <SRC>

Write the Agent Plugins package of a Claude Code, Codex, Cursor or Gemini CLI plugin, and say what is left behind.

Options:
  -o, --output <DEST>   Where the package is written: a folder that does not exist or is empty
                        (default: \`SRC-agent-plugin\`)
  --from <VENDOR>       Read this layout when SRC has several: claude, codex, cursor or gemini
  --name <NAME>         The plugin's name, in place of the source's
  --force               Write into a DEST that is not empty, replacing the files the package has
  --dry-run             Print what would be written, and write nothing`;

/** \`plugins/x\` → \`plugins/x-agent-plugin\`, beside the source (as the Rust CLI's \`default_dest\`). */
function defaultDest(source) {
  let real;
  try {
    real = realpathSync(source);
  } catch {
    real = undefined;
  }
  const named = real !== undefined && real !== '/';
  const dest = `${named ? basename(real) : 'plugin'}-agent-plugin`;
  return named ? join(dirname(real), dest) : dest;
}

/** `apcheck port SRC`: the source read here, ported by the core, and its files written here. */
function port({ output, from, name, force, 'dry-run': dryRun, positionals: [source] }) {
  let pkg;
  try {
    pkg = readPackage(source);
  } catch (error) {
    throw new Error(`${source}: ${error.code === 'ENOTDIR' && !error.syscall ? error.message : ioMessage(error)}`);
  }
  try {
    const ported = pkg.tree.cliPort(source, from, name);
    if (typeof ported === 'string') return emitStreams(ported);
    try {
      const dest = output ?? defaultDest(source);
      if (!dryRun) writePackage(source, dest, ported, force);
      return emitWritten(ported.written(dest, dryRun));
    } finally {
      ported.free();
    }
  } finally {
    pkg.free();
  }
}

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
  diff: command(
    DIFF_HELP,
    { format: DIFF_FORMATS, 'array-key': MANY, 'no-default-keys': SWITCH, ignore: MANY, color: CHOICES.color },
    { format: 'text', color: 'auto', 'array-key': [], 'no-default-keys': false, ignore: [] },
    [2, 2],
    '<A> <B>',
    ({ format, color, 'array-key': arrayKeys, 'no-default-keys': noDefaultKeys, ignore, positionals: [a, b] }) => {
      // Syntax errors go to stderr coloured as stderr allows, whatever `--color` says (as the Rust CLI).
      const flags = JSON.stringify({ format, arrayKeys, noDefaultKeys, ignore, color: colorEnabled(color), stderrColor: stderrColor('auto') });
      // Refused before reading when the files' sizes already say so.
      const size = (path) => {
        if (path === '-') return undefined;
        try {
          return statSync(path).size;
        } catch {
          return undefined;
        }
      };
      const [sizeA, sizeB] = [size(a), size(b)];
      const refused = wasm.cliDiffRefusal(flags, sizeA === undefined || sizeB === undefined ? undefined : sizeA + sizeB);
      if (refused !== undefined) {
        process.stderr.write(refused);
        return EXIT_FAILURE;
      }
      const limit = wasm.cliDiffInputLimit();
      const aText = readInput(a, limit);
      const bText = readInput(b, limit);
      return emitStreams(wasm.cliDiff(a, aText, b, bText, flags));
    },
  ),
  fmt: command(
    FMT_HELP,
    { indent: null, minify: SWITCH, 'sort-keys': SWITCH, jsonc: SWITCH, write: SWITCH, check: SWITCH, 'max-input-mib': null },
    { minify: false, 'sort-keys': false, jsonc: false, write: false, check: false, 'max-input-mib': '256' },
    [1, Infinity],
    '<FILE>...',
    fmt,
  ),
  validate: command(
    VALIDATE_HELP,
    { schema: null, builtin: null, ref: MANY, formats: SWITCH, ...REPORT_FLAGS, 'max-input-mib': null },
    { ...REPORT_DEFAULTS, ref: [], formats: false, 'max-input-mib': '256' },
    [0, Infinity],
    '',
    validate,
  ),
  snapshot: command(
    SNAPSHOT_HELP,
    { tools: MANY, failed: MANY, output: null },
    { tools: [], failed: [] },
    [1, 1],
    '<PLUGIN>',
    snapshot,
    { '-o': 'output' },
  ),
  config: command(
    CONFIG_HELP,
    { show: SWITCH, config: null, select: MANY, 'extend-select': MANY, ignore: MANY, severity: MANY, 'extensions-namespace': null },
    { show: false, select: [], 'extend-select': [], ignore: [], severity: [] },
    [0, 1],
    '',
    config,
  ),
  new: command(
    NEW_HELP,
    { skill: MANY, 'stdio-server': PAIR, 'http-server': PAIR },
    { skill: [], 'stdio-server': [], 'http-server': [] },
    [1, 1],
    '<NAME>',
    newPackage,
  ),
  port: command(
    PORT_HELP,
    { output: null, from: ['claude', 'codex', 'cursor', 'gemini'], name: null, force: SWITCH, 'dry-run': SWITCH },
    { force: false, 'dry-run': false },
    [1, 1],
    '<SRC>',
    port,
    { '-o': 'output' },
  ),
  changes: command('changes [--format <FORMAT>] [--color <WHEN>] <OLD> <NEW>', REPORT_FLAGS, REPORT_DEFAULTS, [2, 2], '<OLD> <NEW>', ({ format, color, positionals: [old, current] }) => {
    const [oldText, newText] = [readText(old), readText(current)];
    return emit(wasm.cliChanges(old, oldText, current, newText, format, colorEnabled(color), process.cwd()));
  }),
  call: command(
    'call [--format <FORMAT>] [--color <WHEN>] <SNAPSHOT> <TOOL> <ARGUMENTS>',
    REPORT_FLAGS,
    REPORT_DEFAULTS,
    [3, 3],
    '<SNAPSHOT> <TOOL> <ARGUMENTS>',
    ({ format, color, positionals: [snapshot, tool, args] }) => {
      const [snapshotText, argsText] = [readText(snapshot), readText(args)];
      return emit(wasm.cliCall(snapshot, snapshotText, tool, args, argsText, format, colorEnabled(color), process.cwd()));
    },
  ),
};

function main(argv) {
  // The native binary is missing or would not start (see the top of the file).
  if (need !== null) return fail(native === null ? nativeMissing(need) : native.error);
  const [command, ...rest] = argv;
  if (command === '--version' || command === '-V') {
    const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
    process.stdout.write(`apcheck ${version}\n`);
    return EXIT_CLEAN;
  }
  if (command === '--help' || command === '-h' || command === 'help') return printHelp(USAGE);
  if (command === 'check') {
    if (rest.includes('--help') || rest.includes('-h')) return printHelp(USAGE);
    return check(rest);
  }
  if (command in COMMANDS) return COMMANDS[command](rest);
  return usage(command === undefined ? 'a command is required' : `unrecognized subcommand '${command}'`);
}

process.exitCode = main(argv);
