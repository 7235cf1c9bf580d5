#!/usr/bin/env node
// Where the wasm's bytes go, per crate: reads the function names from the
// wasm's `name` section (wasm-bindgen's output has it; wasm-opt strips it),
// attributes each function body to a crate, and counts the data segments
// apart. Node's standard library only, so CI needs no `twiggy` build.
// scripts/build-web.mjs prints it for www/pkg/apcheck_bg.wasm before wasm-opt.
//
//   node scripts/wasm-size.mjs [file.wasm] [--top N] [--functions N]
//     (default: rustc's output, target/wasm32-unknown-unknown/wasm-release/apcheck.wasm)
//   --functions N also lists the N biggest functions and the N biggest generic
//     families (one name, type arguments dropped, with its instantiation count):
//     where monomorphisation costs, and which generic to collapse first.
//   --map FILE also attributes the data segments, from a wasm-ld link map of
//     the same link (file.wasm must be that link's output, rustc's wasm):
//       cargo rustc --lib --profile wasm-release --target wasm32-unknown-unknown \
//         -- -C link-arg=--Map=/tmp/apcheck.map
//     (only apcheck relinks; give it build-web.mjs's CARGO_ENCODED_RUSTFLAGS, or
//     every dependency rebuilds). Named statics go to their crate; after LTO
//     most data is anonymous constants, which keep only their crate's hash:
//     they are grouped by it, with the opening text of the biggest one.
//
// A generic function of core/alloc/std is counted for the first other crate
// named in its type arguments (`core::ptr::drop_in_place<jsonschema::…>` is
// jsonschema's): that crate's use of it is why it is in the wasm.

import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
export const RUSTC_WASM = join(root, 'target/wasm32-unknown-unknown/wasm-release/apcheck.wasm');

class Reader {
  constructor(bytes, offset = 0, end = bytes.length) {
    this.bytes = bytes;
    this.offset = offset;
    this.end = end;
  }
  byte() {
    return this.bytes[this.offset++];
  }
  u32() {
    let result = 0;
    let shift = 0;
    for (;;) {
      const byte = this.byte();
      result += (byte & 0x7f) * 2 ** shift;
      if (byte < 0x80) return result;
      shift += 7;
    }
  }
  name() {
    const length = this.u32();
    const text = new TextDecoder().decode(this.bytes.subarray(this.offset, this.offset + length));
    this.offset += length;
    return text;
  }
  skip(count) {
    this.offset += count;
  }
}

/** The sections of a wasm module: [{id, name?, start, end}]. */
function sections(bytes) {
  if (bytes.length < 8 || bytes.readUInt32LE(0) !== 0x6d736100) throw new Error('not a wasm module');
  const found = [];
  const reader = new Reader(bytes, 8);
  while (reader.offset < bytes.length) {
    const id = reader.byte();
    const size = reader.u32();
    const start = reader.offset;
    const section = { id, start, end: start + size };
    if (id === 0) section.name = new Reader(bytes, start).name();
    found.push(section);
    reader.offset = start + size;
  }
  return found;
}

function importedFunctionCount(bytes, section) {
  const reader = new Reader(bytes, section.start);
  let functions = 0;
  for (let count = reader.u32(); count > 0; count--) {
    reader.name();
    reader.name();
    const kind = reader.byte();
    if (kind === 0) {
      functions++;
      reader.u32();
    } else if (kind === 1) {
      reader.byte();
      limits(reader);
    } else if (kind === 2) {
      limits(reader);
    } else if (kind === 3) {
      reader.byte();
      reader.byte();
    } else if (kind === 4) {
      reader.byte();
      reader.u32();
    }
  }
  return functions;
}

function limits(reader) {
  const flags = reader.byte();
  reader.u32();
  if (flags & 1) reader.u32();
}

function functionNames(bytes, section) {
  const names = new Map();
  const reader = new Reader(bytes, section.start, section.end);
  reader.name();
  while (reader.offset < section.end) {
    const kind = reader.byte();
    const size = reader.u32();
    const next = reader.offset + size;
    if (kind === 1) {
      for (let count = reader.u32(); count > 0; count--) names.set(reader.u32(), reader.name());
    }
    reader.offset = next;
  }
  return names;
}

const LEGACY_ESCAPES = { SP: '@', BP: '*', RF: '&', LT: '<', GT: '>', LP: '(', RP: ')', C: ',' };

/**
 * A Rust symbol made readable enough to find its crates: legacy `_ZN…E`
 * manglings are decoded (hash dropped); v0 `_R…` ones become the list of
 * their crate names in order (`core::alloc::apcheck::`), which is all
 * `crateOf` needs. Other names are returned as they are.
 */
export function demangle(symbol) {
  if (symbol.startsWith('_ZN')) {
    const parts = [];
    let at = 3;
    while (at < symbol.length && symbol[at] !== 'E') {
      const digits = /^\d+/.exec(symbol.slice(at))?.[0];
      if (!digits) break;
      at += digits.length;
      parts.push(symbol.slice(at, at + Number(digits)));
      at += Number(digits);
    }
    if (parts.length > 1 && /^h[0-9a-f]{16}$/.test(parts.at(-1))) parts.pop();
    return parts
      .map((part) =>
        part
          .replace(/^_\$/, '$')
          .replace(/\$([A-Z]{1,2})\$/g, (whole, code) => LEGACY_ESCAPES[code] ?? whole)
          .replace(/\$u([0-9a-f]{2})\$/g, (_, hex) => String.fromCharCode(parseInt(hex, 16)))
          .replaceAll('..', '::'),
      )
      .join('::');
  }
  if (symbol.startsWith('_R')) {
    const crates = [...symbol.matchAll(/C(?:s[0-9a-zA-Z]*_)?(\d+)/g)]
      .map((match) => symbol.substr(match.index + match[0].length, Number(match[1])))
      .filter((name) => /^[a-z_][a-z0-9_]*$/.test(name));
    return crates.map((name) => `${name}::`).join(' ');
  }
  return symbol;
}

const STD_CRATES = new Set(['core', 'alloc', 'std', 'hashbrown', 'compiler_builtins', 'dlmalloc', 'rustc_demangle', 'std_detect']);

/** The crate a demangled function name belongs to (see the header). */
export function crateOf(name) {
  const paths = [...name.matchAll(/(?:^|[<(&*\[, ])(?:dyn |mut |const )?([a-z_][a-z0-9_]*)::/g)].map((m) => m[1]);
  if (paths.length === 0) return name.startsWith('__') || name.includes('wasm') ? 'wasm-bindgen/runtime' : 'other';
  return paths.find((crate) => !STD_CRATES.has(crate)) ?? paths[0];
}

/**
 * The size breakdown of the wasm at `path`: {total, code, data, named, crates:
 * [{crate, bytes, functions}]} in bytes, biggest first. `named` is false when
 * the module has no name section (then every function is "unnamed").
 */
export function wasmSizes(path) {
  const bytes = readFileSync(path);
  const all = sections(bytes);
  const imports = all.find((s) => s.id === 2);
  const firstDefined = imports ? importedFunctionCount(bytes, imports) : 0;
  const nameSection = all.find((s) => s.id === 0 && s.name === 'name');
  const names = nameSection ? functionNames(bytes, nameSection) : new Map();
  const crates = new Map();
  const functions = [];
  const code = all.find((s) => s.id === 10);
  if (code) {
    const reader = new Reader(bytes, code.start);
    const count = reader.u32();
    for (let i = 0; i < count; i++) {
      const body = reader.u32();
      reader.skip(body);
      const name = names.get(firstDefined + i);
      const readable = name ? demangle(name) : 'unnamed';
      functions.push({ name: readable, bytes: body });
      const crate = name ? crateOf(readable) : 'unnamed';
      const entry = crates.get(crate) ?? { crate, bytes: 0, functions: 0 };
      entry.bytes += body;
      entry.functions++;
      crates.set(crate, entry);
    }
  }
  const sizeOf = (id) => all.filter((s) => s.id === id).reduce((sum, s) => sum + s.end - s.start, 0);
  return {
    total: bytes.length,
    code: sizeOf(10),
    data: sizeOf(11),
    named: Boolean(nameSection),
    crates: [...crates.values()].sort((a, b) => b.bytes - a.bytes),
    functions: functions.sort((a, b) => b.bytes - a.bytes),
  };
}

/**
 * A function's generic family: its demangled name without type arguments,
 * where a trait method keeps its trait (`<Vec<T> as Drop>::drop` is
 * `<_ as Drop>::drop`), so that all of a trait's impls do not fold into one.
 */
export function familyOf(name) {
  const withoutArguments = (text) => {
    for (let previous; previous !== text; ) {
      previous = text;
      text = text.replace(/<[^<>]*>/g, '');
    }
    return text;
  };
  if (!name.startsWith('<')) return withoutArguments(name);
  let depth = 0;
  let as = -1;
  for (let at = 0; at < name.length; at++) {
    if (name[at] === '<') depth++;
    else if (name[at] === '>' && --depth === 0) {
      if (as < 0) break;
      return `<_ as ${withoutArguments(name.slice(as + 4, at))}>${withoutArguments(name.slice(at + 1))}`;
    } else if (depth === 1 && as < 0 && name.startsWith(' as ', at)) as = at;
  }
  return withoutArguments(name);
}

/** The `top` biggest functions and generic families of the wasm at `path`, as printable lines. */
export function functionReport(path, top) {
  const { functions } = wasmSizes(path);
  const kib = (n) => `${(n / 1024).toFixed(1)} KiB`.padStart(10);
  const lines = [`biggest functions:`];
  for (const f of functions.slice(0, top)) lines.push(`  ${kib(f.bytes)}  ${f.name.slice(0, 160)}`);
  const families = new Map();
  for (const f of functions) {
    const family = familyOf(f.name);
    const entry = families.get(family) ?? { family, bytes: 0, count: 0 };
    entry.bytes += f.bytes;
    entry.count++;
    families.set(family, entry);
  }
  lines.push(`biggest generic families (instantiations):`);
  const biggest = [...families.values()].sort((a, b) => b.bytes - a.bytes).slice(0, top);
  for (const f of biggest) lines.push(`  ${kib(f.bytes)} ${String(f.count).padStart(5)}×  ${f.family.slice(0, 150)}`);
  return lines;
}

/** The breakdown as printable lines, the `top` biggest crates and the rest summed. */
export function sizeReport(path, top = 15) {
  const sizes = wasmSizes(path);
  const kib = (n) => `${(n / 1024).toFixed(1)} KiB`.padStart(11);
  const share = (n) => `${((100 * n) / sizes.code).toFixed(1)}%`.padStart(6);
  const lines = [`wasm by crate (${path.replace(`${root}/`, '')}: ${kib(sizes.total).trim()}, code ${kib(sizes.code).trim()}, data ${kib(sizes.data).trim()}):`];
  if (!sizes.named) lines.push('  (no name section: built without names, so no per-crate figures)');
  for (const entry of sizes.crates.slice(0, top)) {
    lines.push(`  ${entry.crate.padEnd(24)} ${kib(entry.bytes)} ${share(entry.bytes)} of code  ${String(entry.functions).padStart(5)} functions`);
  }
  const rest = sizes.crates.slice(top);
  if (rest.length) {
    const bytes = rest.reduce((sum, entry) => sum + entry.bytes, 0);
    lines.push(`  ${`${rest.length} more crates`.padEnd(24)} ${kib(bytes)} ${share(bytes)} of code`);
  }
  lines.push(`  ${'data segments'.padEnd(24)} ${kib(sizes.data)} (embedded schemas, tables, strings)`);
  return lines;
}

/**
 * The data segments by origin, from a wasm-ld `--Map` of the link that made
 * `wasmPath`: [{origin, bytes, count, sample}], biggest first.
 */
export function dataOrigins(mapPath, wasmPath) {
  const wasm = readFileSync(wasmPath);
  const origins = new Map();
  let inData = false;
  for (const line of readFileSync(mapPath, 'utf8').split('\n')) {
    // Columns: address, file offset, size (hex), then the output section or an input `file:(section)`.
    const match = /^\s*(\S+)\s+([0-9a-f]+)\s+([0-9a-f]+)\s+(.*)$/.exec(line);
    if (!match) continue;
    const [, address, offset, size, what] = match;
    if (address === '-') {
      inData = what === 'DATA';
      continue;
    }
    const input = inData && /:\(\.(?:rodata|data|tdata)\.(.+)\)$/.exec(what);
    if (!input) continue;
    const symbol = input[1];
    const anonymous = /^\.Lanon\.([0-9a-f]{8})/.exec(symbol);
    const origin = anonymous
      ? `anonymous constants of crate hash ${anonymous[1]}`
      : symbol.startsWith('.L')
        ? 'compiler tables (.L…)'
        : crateOf(demangle(symbol));
    const bytes = parseInt(size, 16);
    const entry = origins.get(origin) ?? { origin, bytes: 0, count: 0, biggest: 0, sample: '' };
    entry.bytes += bytes;
    entry.count++;
    if (bytes > entry.biggest) {
      entry.biggest = bytes;
      const start = parseInt(offset, 16);
      const text = wasm.subarray(start, start + Math.min(bytes, 48)).toString('latin1');
      entry.sample = text.replace(/[^\x20-\x7e]/g, '.');
    }
    origins.set(origin, entry);
  }
  return [...origins.values()].sort((a, b) => b.bytes - a.bytes);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const topFlag = args.indexOf('--top');
  const top = topFlag >= 0 ? Number(args.splice(topFlag, 2)[1]) : 15;
  const functionsFlag = args.indexOf('--functions');
  const functions = functionsFlag >= 0 ? Number(args.splice(functionsFlag, 2)[1]) : 0;
  const mapFlag = args.indexOf('--map');
  const map = mapFlag >= 0 ? args.splice(mapFlag, 2)[1] : undefined;
  const path = args[0] ?? RUSTC_WASM;
  for (const line of sizeReport(path, top)) console.log(line);
  if (functions > 0) for (const line of functionReport(path, functions)) console.log(line);
  if (map) {
    console.log('data by origin (link map):');
    for (const entry of dataOrigins(map, path).slice(0, top)) {
      const kib = `${(entry.bytes / 1024).toFixed(1)} KiB`.padStart(11);
      console.log(`  ${kib} ${String(entry.count).padStart(5)}×  ${entry.origin.padEnd(48)} ${JSON.stringify(entry.sample)}`);
    }
  }
}
