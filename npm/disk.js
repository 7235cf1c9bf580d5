// The disk edge for Node, the same reading as the Rust CLI's (`src/disk.rs`
// and `apcheck check`'s root search): each entry's kind is the listing's,
// which does not follow links (as `lstat` does not), links are recorded with
// `readlink` and never followed, so §4.1 containment is decided inside the
// core exactly as natively. Error texts are Rust's own `io::Error` texts
// (the core carries them, `ioErrorText`), so the reports are byte-identical. The configuration is
// found as `src/bin/apcheck/settings.rs` finds it; the core parses and applies
// it, and decides which directories of a folder are plugin roots.
import {
  chmodSync,
  closeSync,
  constants,
  existsSync,
  fstatSync,
  fsyncSync,
  lstatSync,
  mkdirSync,
  openSync,
  readFileSync,
  readSync,
  readdirSync,
  readlinkSync,
  realpathSync,
  renameSync,
  statSync,
  unlinkSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { basename, dirname, isAbsolute, join } from 'node:path';
import { Package, Settings, limits as defaultLimits } from './api.js';
import { ioErrorText, rootsNamed } from './wasm/apcheck.js';

/** The configuration file names, in the order they are looked for in each directory (`config::FILE_NAMES`). */
const CONFIG_FILE_NAMES = ['apcheck.toml', 'pyproject.toml'];

/**
 * Rust's `io::Error` text for an error a read can meet: the text the core was
 * built with (build.rs has Rust spell it on the build's host), then the errno
 * on this system, as `std::io::Error` displays it.
 */
export function ioMessage(error) {
  const text = typeof error.code === 'string' ? ioErrorText(error.code) : undefined;
  const errno = constants[error.code] ?? (typeof error.errno === 'number' ? Math.abs(error.errno) : undefined);
  return text && errno !== undefined ? `${text} (os error ${errno})` : error.message;
}

const byBytes = (a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b));
const byCodeUnits = (a, b) => (a < b ? -1 : a > b ? 1 : 0);
const SURROGATE = /[\uD800-\uDFFF]/;

/**
 * Sorts `items` by `name(item)` in the order of the names' UTF-8 bytes, as
 * Rust sorts them. UTF-16 code units order names as their bytes do unless a
 * name has a character beyond U+FFFF (a surrogate pair), so only then are the
 * names compared as bytes: a Buffer per comparison was a tenth of a walk.
 */
function sortByBytes(items, name = (item) => item) {
  const compare = items.some((item) => SURROGATE.test(name(item))) ? byBytes : byCodeUnits;
  return items.sort((a, b) => compare(name(a), name(b)));
}

/** Path components as Rust's `Path::components` yields them (no empty or inner `.` parts). */
function components(path) {
  const parts = path.split('/').filter((part, i) => part !== '' && !(part === '.' && i > 0));
  return path.startsWith('/') ? ['/', ...parts] : parts;
}

function stripPrefix(path, prefix) {
  const [p, q] = [components(path), components(prefix)];
  if (q.length > p.length || q.some((part, i) => part !== p[i])) return undefined;
  return p.slice(q.length);
}

/** Absolute link targets inside the root become relative (as `disk::link_target_inside`). */
function linkTargetInside(root, linkPath, target) {
  if (isAbsolute(target)) {
    let realRoot;
    try {
      realRoot = realpathSync(root);
    } catch {
      return target;
    }
    const parent = linkPath.slice(0, linkPath.lastIndexOf('/'));
    const relTarget = stripPrefix(target, realRoot);
    const relParent = stripPrefix(parent, realRoot);
    if (relTarget && relParent) {
      const relative = '../'.repeat(relParent.length) + relTarget.join('/');
      return relative === '' ? '.' : relative;
    }
  }
  return target;
}

function realpathOr(path) {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

/** `path` relative to `base`, `/`-separated (as `settings::Loaded::relative`). */
export function relativeTo(base, path) {
  const absolute = realpathOr(path);
  return (stripPrefix(absolute, base) ?? components(absolute)).join('/');
}

/** The settings in `file`, or `undefined` for a pyproject.toml without `[tool.apcheck]`. */
function readSettings(file) {
  let bytes;
  try {
    bytes = readFileSync(file);
  } catch (error) {
    throw new Error(`${file}: ${ioMessage(error)}`);
  }
  let text;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new Error(`${file}: stream did not contain valid UTF-8`);
  }
  return Settings.parse(file, text);
}

function isFile(path) {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/** The nearest configuration in `path`'s directory or above it. */
function findAbove(path) {
  for (let dir = realpathOr(path); ; dir = dirname(dir)) {
    for (const name of CONFIG_FILE_NAMES) {
      const candidate = join(dir, name);
      if (!isFile(candidate)) continue;
      const settings = readSettings(candidate);
      if (settings !== undefined) return { settings, file: candidate };
    }
    if (dirname(dir) === dir) return undefined;
  }
}

export function loadSettings(path, { config, select = [], extendSelect = [], ignore = [], severity = [], extensionsNamespace } = {}) {
  let found;
  if (config !== undefined) {
    const settings = readSettings(config);
    if (settings === undefined) throw new Error(`${config}: has no [tool.apcheck] table`);
    found = { settings, file: config };
  } else {
    found = findAbove(path);
  }
  let base;
  if (found === undefined) {
    found = { settings: new Settings() };
    base = realpathOr(process.cwd());
  } else {
    try {
      base = dirname(realpathSync(found.file));
    } catch (error) {
      throw new Error(`${found.file}: ${ioMessage(error)}`);
    }
  }
  try {
    return { settings: found.settings.withFlags({ select, extendSelect, ignore, severity, extensionsNamespace }), base, file: found.file };
  } finally {
    found.settings.free();
  }
}

function describeSpecial(stats) {
  if (stats.isFIFO()) return 'a FIFO';
  if (stats.isSocket()) return 'a socket';
  if (stats.isBlockDevice() || stats.isCharacterDevice()) return 'a device';
  return 'not a regular file, directory or symlink';
}

/**
 * Every file's bytes one after another, as `addListed` takes them: files are
 * read straight into one growing buffer. A buffer per read (1 MiB each, for
 * files of a few KiB) made the garbage collector a tenth of a large package's check.
 */
class Contents {
  buffer = Buffer.allocUnsafe(1 << 16);
  length = 0;

  /**
   * Appends at most `limit` bytes of the file at `path`; returns how many
   * (`read`), and the file's `size` when it is cut at the limit. No `lstat`
   * first: one per file was a sixth of a walk, and only a file cut short
   * needs its size (`fstat`, then).
   */
  append(path, limit) {
    const start = this.length;
    const fd = openSync(path, 'r');
    let size;
    try {
      for (let read = start; read - start < limit; ) {
        // 64 KiB, or as much again as is read, so a large file takes few reads.
        const room = Math.min(limit - (read - start), Math.max(read - start, 1 << 16));
        this.reserve(read + room);
        const got = readSync(fd, this.buffer, read, room, null);
        if (got === 0) break;
        read += got;
        this.length = read;
      }
      if (this.length - start === limit) size = fstatSync(fd).size;
    } catch (error) {
      this.length = start;
      throw error;
    } finally {
      closeSync(fd);
    }
    return { read: this.length - start, size };
  }

  reserve(length) {
    if (length <= this.buffer.length) return;
    const bigger = Buffer.allocUnsafe(Math.max(length, 2 * this.buffer.length));
    this.buffer.copy(bigger, 0, 0, this.length);
    this.buffer = bigger;
  }

  bytes() {
    return this.buffer.subarray(0, this.length);
  }
}

/** What a client opens in a plugin root by name, so what is looked up when the root cannot be listed (`disk.rs`'s ROOT_COMPONENTS). */
const ROOT_COMPONENTS = ['plugin.json', 'mcp.json', 'skills'];

/**
 * Reads the plugin root `root` into a Package, within the CLI's limits. Throws
 * when `root` is not a readable directory. The entries are gathered here and
 * handed to the wasm in one call (`addListed`) with every file's bytes in one buffer.
 */
export function readPackage(root, limits = defaultLimits()) {
  if (!statSync(root).isDirectory()) {
    const error = new Error('a plugin root is a directory');
    error.code = 'ENOTDIR';
    throw error;
  }
  const listing = [];
  const contents = new Contents();
  let count = 0;
  let unlistedRoot;
  const pending = [[root, '']];
  while (pending.length > 0) {
    const [dir, rel] = pending.pop();
    // Each entry's kind as the listing gives it (a Dirent does not follow
    // links, as `lstat` does not; Node asks `lstat` itself when the
    // filesystem does not say), so no entry is `lstat`ed here.
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch (error) {
      if (rel !== '') {
        // The directory was counted when it was listed; now it is known unreadable.
        listing.push({ kind: 'unreadable', path: rel, reason: ioMessage(error) });
        continue;
      }
      // A root that cannot be listed is not an empty one: as the CLI does, say
      // so, and look up by name what a client opens by name.
      unlistedRoot = { reason: ioMessage(error), absent: [] };
      entries = [];
      for (const name of ROOT_COMPONENTS) {
        try {
          entries.push({ name, stats: lstatSync(join(dir, name)) });
        } catch (error) {
          if (error.code === 'ENOENT') unlistedRoot.absent.push(name);
        }
      }
    }
    sortByBytes(entries, (entry) => entry.name);
    for (const entry of entries) {
      const { name } = entry;
      const kind = entry.stats ?? entry;
      const path = rel === '' ? name : `${rel}/${name}`;
      if (count >= limits.maxEntries) {
        listing.push({ kind: 'omitted', path, limit: 'max_entries' });
        continue;
      }
      count++;
      const full = `${dir}/${name}`;
      if (kind.isSymbolicLink()) {
        try {
          const target = readlinkSync(full);
          listing.push({ kind: 'symlink', path, target: linkTargetInside(root, full, target) });
        } catch (error) {
          listing.push({ kind: 'unreadable', path, reason: ioMessage(error) });
        }
      } else if (kind.isDirectory()) {
        pending.push([full, path]);
        listing.push({ kind: 'dir', path });
      } else if (kind.isFile()) {
        const budget = Math.min(limits.maxFileBytes, Math.max(0, limits.maxTotalBytes - contents.length));
        try {
          const { read, size } = contents.append(full, budget);
          if (size !== undefined && read < size) listing.push({ kind: 'truncated', path, size });
          listing.push({ kind: 'file', path, bytes: read });
        } catch (error) {
          listing.push({ kind: 'unreadable', path, reason: ioMessage(error) });
        }
      } else {
        listing.push({ kind: 'other', path, description: describeSpecial(kind) });
      }
    }
  }
  const pkg = new Package();
  if (unlistedRoot) {
    pkg.markUnlisted('', unlistedRoot.reason);
    for (const name of unlistedRoot.absent) pkg.markAbsent(name);
  }
  pkg.tree.addListed(JSON.stringify(listing), contents.bytes());
  return pkg;
}

/** Checks the plugin root `root`; `name` is how the report names it (the path, by default). */
export function checkDirectory(root, name = root) {
  const pkg = readPackage(root);
  try {
    return pkg.check(name);
  } finally {
    pkg.free();
  }
}

function hasManifest(dir) {
  try {
    lstatSync(join(dir, 'plugin.json'));
    return true;
  } catch {
    return false;
  }
}

const joinRelative = (base, relative) => (base === '' ? relative : relative === '' ? base : `${base}/${relative}`);

/**
 * The names of `dir`'s child directories; a Dirent does not follow links, so a
 * symlinked one is not listed. Throws when `dir` cannot be listed: the core then
 * checks it as a root of its own, which says so (`collection::roots_named`).
 */
function childDirs(dir) {
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);
}

/**
 * The plugin roots `path` names, as `apcheck check` finds them: a directory
 * with its own plugin.json is one root; one without, holding roots below it, is
 * a collection; one with neither is one root (rejected for its missing manifest).
 * A collection leaves out the directories `loaded`'s `exclude` globs match.
 */
export function findRoots(path, loaded) {
  const shown = path;
  let stats;
  try {
    stats = statSync(path);
  } catch (error) {
    throw new Error(`${shown}: ${ioMessage(error)}`);
  }
  if (!stats.isDirectory()) {
    throw new Error(`${shown}: not a directory; give the plugin root, the directory that holds plugin.json`);
  }
  const baseOfStart = loaded === undefined ? '' : relativeTo(loaded.base, path);
  const excluded = (relative) => loaded !== undefined && loaded.settings.excludes(joinRelative(baseOfStart, relative));
  // Which directories are roots is the core's rule (`collection::roots_named`), as for the CLI and the page.
  const named = JSON.parse(
    rootsNamed(
      (dir) => hasManifest(join(path, dir)),
      (dir) => childDirs(join(path, dir)).filter((name) => !excluded(joinRelative(dir, name))),
    ),
  );
  if (!named.collection) return { roots: [{ dir: path, name: shown }], collection: false };
  const base = shown.replace(/[/\\]+$/, '');
  return {
    roots: named.roots.map((relative) => ({
      // As Rust's `Path::join` names it: the fixes' write errors quote it.
      dir: joinPath(path, relative),
      name: base === '' || base === '.' ? relative : `${base}/${relative}`,
    })),
    collection: true,
  };
}

/** `file` (a root-relative path of the core's) below `dir`, as Rust's `Path::join` names it. */
export function joinPath(dir, file) {
  return isAbsolute(file) ? file : dir.endsWith('/') ? `${dir}${file}` : `${dir}/${file}`;
}

/**
 * Writes `text` to the file `file` of the plugin root `dir`, as the Rust CLI's
 * `check --fix` writes it (`src/bin/apcheck/fix.rs`): through a link, if the
 * file is one (the check resolved it inside the root), atomically (a temporary
 * file beside the target, then a rename), keeping the target's permissions.
 * Only a file that exists is replaced. Throws the Rust CLI's `path: error`.
 * Beyond the Rust writer: `file` must be a plain relative path (the core's
 * paths are), and the file it resolves to must still be inside the root.
 */
export function writeFixed(dir, file, text) {
  const path = joinPath(dir, file);
  const parts = file.split('/');
  if (isAbsolute(file) || parts.some((part) => part === '' || part === '.' || part === '..')) {
    throw new Error(`${path}: not a path inside the plugin root`);
  }
  let temporary;
  try {
    const target = realpathSync(path);
    const root = realpathSync(dir);
    if (stripPrefix(target, root) === undefined || target === root) {
      throw new Error(`${path}: resolves to ${target}, outside the plugin root ${root}`);
    }
    temporary = join(dirname(target), `.${basename(target)}.apcheck-fix-${process.pid}`);
    const fd = openSync(temporary, 'w');
    try {
      const bytes = Buffer.from(text, 'utf8');
      for (let written = 0; written < bytes.length; ) written += writeSync(fd, bytes, written);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    chmodSync(temporary, statSync(target).mode & 0o7777);
    renameSync(temporary, target);
  } catch (error) {
    if (temporary !== undefined) {
      try {
        unlinkSync(temporary);
      } catch {
        // Renamed already, or never created.
      }
    }
    throw error.code === undefined ? error : new Error(`${path}: ${ioMessage(error)}`);
  }
}

/** `file` as a path inside a folder the core writes into: a plain relative path, or the message to fail with. */
function plainRelative(file, dir) {
  if (isAbsolute(file) || file.split('/').some((part) => part === '' || part === '.' || part === '..')) {
    throw new Error(`${file}: not a path inside ${dir}`);
  }
}

/** The entries of `dir`, `undefined` when it does not exist, or throws `failure(error)` (the message) when it cannot be listed. */
function entriesOrAbsent(dir, failure) {
  try {
    return readdirSync(dir);
  } catch (error) {
    if (error.code === 'ENOENT') return undefined;
    throw new Error(failure(error));
  }
}

/** Creates the file `path` with `bytes` (never replacing one unless `replace`), its folders first; throws the Rust CLI's `path: error`. */
function createFile(path, bytes, replace) {
  try {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, bytes, { flag: replace ? 'w' : 'wx' });
  } catch (error) {
    throw new Error(`${path}: ${ioMessage(error)}`);
  }
}

/**
 * Writes `apcheck new`'s files (`[file, text]` pairs, relative to `dir`) as
 * the Rust CLI's `write_new` does (`src/bin/apcheck/new.rs`): `dir` must not
 * exist or be empty, and each file is created new, so nothing there is ever
 * replaced. Throws the Rust CLI's message.
 */
export function writeNew(dir, files) {
  const entries = entriesOrAbsent(dir, (error) =>
    existsSync(dir) ? `${dir} already exists; apcheck new never overwrites` : `${dir}: ${ioMessage(error)}`,
  );
  if (entries !== undefined && entries.length > 0) throw new Error(`${dir} already exists and is not empty; apcheck new never overwrites`);
  for (const [file, text] of files) {
    plainRelative(file, dir);
    createFile(joinPath(dir, file), text, false);
  }
}

/**
 * Writes `apcheck port`'s package (`run`, the wasm's `PortRun`) under `dir`
 * as the Rust CLI's `write_package` does (`src/bin/apcheck/port.rs`): without
 * `force`, `dir` must not exist or be empty and every file is created new;
 * with it, the package's files replace those there. No path leaves `dir`:
 * each is a plain relative path, and no link under `dir` is written through.
 * A script copied from `source` stays executable. Throws the Rust CLI's message.
 */
export function writePackage(source, dir, run, force) {
  const entries = entriesOrAbsent(dir, (error) => (existsSync(dir) ? `${dir} exists and is not a folder` : `${dir}: ${ioMessage(error)}`));
  if (entries !== undefined && entries.length > 0 && !force) {
    throw new Error(`${dir} already exists and is not empty; give an empty folder, or --force to write into it`);
  }
  for (let index = 0; index < run.count; index++) {
    const file = run.file(index);
    plainRelative(file, dir);
    const path = joinPath(dir, file);
    let walked = dir;
    for (const part of file.split('/')) {
      walked = joinPath(walked, part);
      let link = false;
      try {
        link = lstatSync(walked).isSymbolicLink();
      } catch {
        // Not there yet: created below.
      }
      if (link) throw new Error(`${walked}: a link; port never writes through one`);
    }
    createFile(path, run.bytes(index), force);
    // plugin.json and mcp.json are port's own, whatever a source file of that name is.
    if (file !== 'plugin.json' && file !== 'mcp.json') {
      try {
        keepExecutable(joinPath(source, file), path);
      } catch (error) {
        throw new Error(`${path}: ${ioMessage(error)}`);
      }
    }
  }
}

/** A script copied from the source stays executable (the tree carries bytes, not modes). */
function keepExecutable(source, written) {
  let stats;
  try {
    stats = lstatSync(source);
  } catch {
    return;
  }
  if (stats.isFile() && (stats.mode & 0o111) !== 0) chmodSync(written, (statSync(written).mode & 0o7777) | (stats.mode & 0o111));
}
