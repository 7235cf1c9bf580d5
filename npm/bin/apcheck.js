#!/usr/bin/env node
// `npx apcheck check PATH…`: the Rust CLI's `check` on the wasm core, with the
// same root search, disk reading, renderers and exit codes: 0 clean, 1
// findings at error level (or warnings with `--deny warnings`), 2 usage or I/O failure.
import { readFileSync } from 'node:fs';
import { renderCheck } from '../node.js';
import { findRoots, ioMessage, readPackage } from '../disk.js';

const EXIT_CLEAN = 0;
const EXIT_FINDINGS = 1;
const EXIT_FAILURE = 2;

const USAGE = `Usage: apcheck check [--format <text|json|sarif|github|markdown>] [--deny warnings] [--color <auto|always|never>] <PATH>...

Check plugin roots (or folders of them) as a conformant client would load them.
This is the npm build of apcheck (the Rust core in WebAssembly); it has the \`check\` command.`;

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

function parse(args) {
  const options = { format: 'text', deny: undefined, color: 'auto', paths: [] };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === '--') {
      options.paths.push(...args.slice(i + 1));
      break;
    }
    const flag = arg.match(/^--(format|deny|color)(?:=(.*))?$/);
    if (flag) {
      const value = flag[2] ?? args[++i];
      if (value === undefined) return { error: `a value is required for '--${flag[1]}'` };
      if (!CHOICES[flag[1]].includes(value)) {
        return { error: `invalid value '${value}' for '--${flag[1]}' [possible values: ${CHOICES[flag[1]].join(', ')}]` };
      }
      options[flag[1]] = value;
    } else if (arg.startsWith('-') && arg !== '-') {
      return { error: `unexpected argument '${arg}' found` };
    } else {
      options.paths.push(arg);
    }
  }
  if (options.paths.length === 0) return { error: 'the following required arguments were not provided: <PATH>...' };
  return { options };
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
  let anyCollection = false;
  for (const path of options.paths) {
    try {
      const found = findRoots(path);
      anyCollection ||= found.collection;
      roots.push(...found.roots);
    } catch (error) {
      return fail(error.message);
    }
  }
  const checked = [];
  let ioFailed = false;
  for (const root of roots) {
    try {
      checked.push({ name: root.name, package: readPackage(root.dir) });
    } catch (error) {
      process.stderr.write(`apcheck: ${root.name}: ${error.code === 'ENOTDIR' && !error.syscall ? error.message : ioMessage(error)}\n`);
      ioFailed = true;
    }
  }
  let fails = false;
  if (checked.length > 0 || !ioFailed) {
    const rendered = renderCheck(checked, {
      format: options.format,
      single: options.paths.length === 1 && !anyCollection,
      color: colorEnabled(options.color),
      sarifBase: process.cwd(),
      denyWarnings: options.deny === 'warnings',
    });
    process.stdout.write(rendered.output);
    fails = rendered.fails;
  }
  for (const { package: pkg } of checked) pkg.free();
  return ioFailed ? EXIT_FAILURE : fails ? EXIT_FINDINGS : EXIT_CLEAN;
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
