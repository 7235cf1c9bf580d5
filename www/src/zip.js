// Reading a .zip in the worker with the reader's limits applied as it goes:
// the central directory is read from the end of the Blob, each entry is
// inflated in small slices and stopped at the file and total byte limits, so a
// small zip that expands to gigabytes never holds more than the limits in
// memory. Entries are reported, never dropped silently:
// - a path that would leave the folder (`..`, absolute, a drive letter) is
//   left out with its reason (the check then says it is partial, AP007);
// - an entry a limit stops (count, path length or depth, total size) is left
//   out with the limit's name; a file over the file limit is cut and marked;
// - a symlink (Unix mode in the external attributes) stays a link, so the
//   core judges its containment as it does on disk (§4.1, AP101).

import { Inflate } from 'fflate';

/** No real package comes near these; they bound what one entry name can cost. */
export const ZIP_LIMITS = { maxPathBytes: 4096, maxPathDepth: 64, maxLinkBytes: 4096 };

// Compressed bytes pushed at a time: deflate expands at most ~1032×, so one push stays near 16 MiB.
const SLICE = 16 * 1024;
const EOCD = 0x06054b50;
const EOCD64_LOCATOR = 0x07064b50;
const EOCD64 = 0x06064b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;
const UNIX_HOST = 3;
const S_IFMT = 0o170000;
const S_IFLNK = 0o120000;

class ZipError extends Error {}

async function bytesOf(blob, start, end) {
  return new Uint8Array(await blob.slice(start, end).arrayBuffer());
}

/** Offset and entry count of the central directory, from the end record (zip64 when marked). */
async function centralDirectory(blob) {
  const tailStart = Math.max(0, blob.size - (22 + 0xffff));
  const tail = await bytesOf(blob, tailStart, blob.size);
  const view = new DataView(tail.buffer);
  for (let at = tail.length - 22; at >= 0; at--) {
    if (view.getUint32(at, true) !== EOCD) continue;
    let count = view.getUint16(at + 10, true);
    let size = view.getUint32(at + 12, true);
    let offset = view.getUint32(at + 16, true);
    if ((count === 0xffff || offset === 0xffffffff || size === 0xffffffff) && at >= 20 && view.getUint32(at - 20, true) === EOCD64_LOCATOR) {
      const recordAt = Number(view.getBigUint64(at - 20 + 8, true));
      const record = new DataView((await bytesOf(blob, recordAt, recordAt + 56)).buffer);
      if (record.getUint32(0, true) !== EOCD64) throw new ZipError('its zip64 end record is damaged');
      count = Number(record.getBigUint64(32, true));
      size = Number(record.getBigUint64(40, true));
      offset = Number(record.getBigUint64(48, true));
    }
    if (offset + size > blob.size) throw new ZipError('its central directory lies past the end of the file');
    return { count, size, offset };
  }
  throw new ZipError('it has no zip end record (not a zip, or cut short)');
}

/** The zip64 extra field's sizes and offset, for the fields marked 0xFFFFFFFF. */
function zip64Values(extra, wanted) {
  const view = new DataView(extra.buffer, extra.byteOffset, extra.byteLength);
  for (let at = 0; at + 4 <= extra.length; ) {
    const id = view.getUint16(at, true);
    const length = view.getUint16(at + 2, true);
    if (id === 0x0001) {
      let field = at + 4;
      const values = {};
      for (const name of wanted) {
        if (field + 8 > at + 4 + length) break;
        values[name] = Number(view.getBigUint64(field, true));
        field += 8;
      }
      return values;
    }
    at += 4 + length;
  }
  return {};
}

/** Every central directory header, as {name, method, flags, compressedSize, size, localOffset, mode}. */
function* headers(directory, count) {
  const view = new DataView(directory.buffer);
  const decoder = new TextDecoder();
  let at = 0;
  for (let index = 0; index < count; index++) {
    if (at + 46 > directory.length || view.getUint32(at, true) !== CENTRAL) throw new ZipError(`its central directory is damaged at entry ${index + 1}`);
    const madeBy = view.getUint16(at + 4, true);
    const flags = view.getUint16(at + 8, true);
    const method = view.getUint16(at + 10, true);
    let compressedSize = view.getUint32(at + 20, true);
    let size = view.getUint32(at + 24, true);
    const nameLength = view.getUint16(at + 28, true);
    const extraLength = view.getUint16(at + 30, true);
    const commentLength = view.getUint16(at + 32, true);
    const external = view.getUint32(at + 38, true);
    let localOffset = view.getUint32(at + 42, true);
    const name = decoder.decode(directory.subarray(at + 46, at + 46 + nameLength));
    const wanted = [size === 0xffffffff && 'size', compressedSize === 0xffffffff && 'compressedSize', localOffset === 0xffffffff && 'localOffset'].filter(Boolean);
    if (wanted.length) {
      const values = zip64Values(directory.subarray(at + 46 + nameLength, at + 46 + nameLength + extraLength), wanted);
      size = values.size ?? size;
      compressedSize = values.compressedSize ?? compressedSize;
      localOffset = values.localOffset ?? localOffset;
    }
    const mode = madeBy >> 8 === UNIX_HOST ? external >>> 16 : 0;
    yield { name, method, flags, compressedSize, size, localOffset, mode };
    at += 46 + nameLength + extraLength + commentLength;
  }
}

/**
 * Where an entry name puts it, or why it is left out: `\` counts as a
 * separator (Windows tools write it so), `.` and empty steps are dropped.
 */
export function placeEntry(name) {
  const steps = name.replace(/\\/g, '/').split('/');
  if (name.startsWith('/') || name.startsWith('\\') || /^[A-Za-z]:/.test(name)) return { unsafe: 'absolute path in the zip' };
  if (steps.includes('..')) return { unsafe: 'path leaving the zip (`..`)' };
  const path = steps.filter((step) => step !== '' && step !== '.').join('/');
  return { path, dir: /[/\\]$/.test(name) };
}

/** Inflates (or copies) one entry's data, keeping at most `keep` bytes; `seen` counts all it produced. */
async function entryData(blob, header, keep) {
  const local = new DataView((await bytesOf(blob, header.localOffset, header.localOffset + 30)).buffer);
  if (local.byteLength < 30 || local.getUint32(0, true) !== LOCAL) throw new ZipError(`the local header of ${header.name} is damaged`);
  const start = header.localOffset + 30 + local.getUint16(26, true) + local.getUint16(28, true);
  const end = Math.min(blob.size, start + header.compressedSize);
  const kept = [];
  let keptBytes = 0;
  let seen = 0;
  const take = (chunk) => {
    seen += chunk.length;
    if (keptBytes < keep) {
      const part = chunk.subarray(0, keep - keptBytes);
      kept.push(part);
      keptBytes += part.length;
    }
  };
  const inflater = header.method === 8 ? new Inflate(take) : null;
  for (let at = start; at < end && seen <= keep; at += SLICE) {
    const slice = await bytesOf(blob, at, Math.min(end, at + SLICE));
    if (inflater) inflater.push(slice, at + SLICE >= end);
    else take(slice);
  }
  const bytes = new Uint8Array(keptBytes);
  let offset = 0;
  for (const part of kept) {
    bytes.set(part, offset);
    offset += part.length;
  }
  return { bytes, seen, stopped: seen > keep };
}

/**
 * The zip's entries as plugin-root entries ({path, kind, bytes | target}; cut
 * files carry `bytes.truncatedFrom`) and the ones left out ({path, reason}). A zip holding one top
 * folder (how "compress folder" makes them) is unwrapped to that folder.
 */
export async function readZip(blob, limits) {
  const { count, size, offset } = await centralDirectory(blob);
  const directory = await bytesOf(blob, offset, offset + size);
  const placed = [];
  const omitted = [];
  for (const header of headers(directory, count)) {
    const where = placeEntry(header.name);
    if (where.unsafe) omitted.push({ path: header.name, reason: where.unsafe });
    else if (where.path !== '') placed.push({ header, ...where });
  }
  // Unwrap a single top folder, judged on the safe entries only (never `..`).
  const top = placed[0]?.path.split('/')[0];
  const wrapped = placed.length > 0 && placed.every(({ path, dir }) => (path === top ? dir : path.startsWith(`${top}/`)));
  const entries = [];
  let totalBytes = 0;
  for (const { header, path: fullPath, dir } of placed) {
    const path = wrapped ? fullPath.slice(top.length + 1) : fullPath;
    if (path === '') continue;
    if (entries.length >= limits.max_entries) omitted.push({ path, reason: `max_entries (${limits.max_entries})` });
    else if (new TextEncoder().encode(path).length > ZIP_LIMITS.maxPathBytes) omitted.push({ path: `${path.slice(0, 200)}…`, reason: `path over ${ZIP_LIMITS.maxPathBytes} bytes` });
    else if (path.split('/').length > ZIP_LIMITS.maxPathDepth) omitted.push({ path: `${path.slice(0, 200)}…`, reason: `path deeper than ${ZIP_LIMITS.maxPathDepth} steps` });
    else if (dir || (header.mode & S_IFMT) === 0o040000) entries.push({ path, kind: 'dir' });
    else if (header.flags & 1) omitted.push({ path, reason: 'encrypted in the zip' });
    else if (header.method !== 0 && header.method !== 8) omitted.push({ path, reason: `zip compression method ${header.method} not supported here` });
    else if ((header.mode & S_IFMT) === S_IFLNK) {
      const { bytes, stopped } = await entryData(blob, header, ZIP_LIMITS.maxLinkBytes);
      if (stopped) omitted.push({ path, reason: `link target over ${ZIP_LIMITS.maxLinkBytes} bytes` });
      else entries.push({ path, kind: 'symlink', target: new TextDecoder().decode(bytes) });
    } else {
      const room = limits.max_total_bytes - totalBytes;
      if (room <= 0 || Math.min(header.size, limits.max_file_bytes) > room) {
        omitted.push({ path, reason: `max_total_bytes (${limits.max_total_bytes})` });
        continue;
      }
      const keep = Math.min(limits.max_file_bytes, room);
      const { bytes, seen, stopped } = await entryData(blob, header, keep);
      if (stopped && keep < limits.max_file_bytes) {
        omitted.push({ path, reason: `max_total_bytes (${limits.max_total_bytes})` });
        continue;
      }
      totalBytes += bytes.length;
      // Cut at the file limit: the real size is what the zip declared or what inflating showed, whichever is larger.
      if (stopped) bytes.truncatedFrom = Math.max(header.size, seen);
      entries.push({ path, kind: 'file', bytes });
    }
  }
  return { entries, omitted };
}

export { ZipError };
