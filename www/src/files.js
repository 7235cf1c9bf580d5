// Turning what a user gives the page (a dropped folder, a picked folder, a
// .zip) into plugin-root entries: {root, entries: [{path, kind, file}]}, paths
// relative to the plugin root. Nothing is uploaded; Files are only read later,
// in the worker.
//
// A browser never shows symlinks: a drop or a picked folder follows them (or
// leaves them out) without saying so. The page says this next to the verdict.

/** Entries from a drop event's DataTransfer. `onCount(n)` reports progress while walking. */
export async function entriesFromDrop(dataTransfer, onCount) {
  const roots = [...dataTransfer.items]
    .filter((item) => item.kind === 'file')
    .map((item) => item.webkitGetAsEntry?.())
    .filter(Boolean);
  if (roots.length === 1 && roots[0].isFile && /\.zip$/i.test(roots[0].name)) {
    return { root: roots[0].name.replace(/\.zip$/i, ''), zip: await fileOf(roots[0]) };
  }
  if (roots.length === 1 && roots[0].isDirectory) {
    const entries = [];
    await walkDirectory(roots[0], '', entries, onCount);
    return { root: roots[0].name, entries };
  }
  // Loose files: treat them as the contents of one unnamed root.
  const entries = [];
  await Promise.all(roots.map((entry) => addEntry(entry, '', entries, onCount)));
  return { root: 'dropped files', entries };
}

async function walkDirectory(directory, prefix, out, onCount) {
  const children = await readAllEntries(directory.createReader());
  await Promise.all(children.map((child) => addEntry(child, prefix, out, onCount)));
}

async function addEntry(entry, prefix, out, onCount) {
  const path = `${prefix}${entry.name}`;
  if (entry.isFile) {
    out.push({ path, kind: 'file', file: await fileOf(entry) });
    if (out.length % 250 === 0) onCount?.(out.length);
    return;
  }
  out.push({ path, kind: 'dir' });
  await walkDirectory(entry, `${path}/`, out, onCount);
}

/** readEntries answers in batches (100 in Chromium) until it returns none. */
async function readAllEntries(reader) {
  const all = [];
  for (;;) {
    const batch = await new Promise((resolve, reject) => reader.readEntries(resolve, reject));
    if (batch.length === 0) return all;
    all.push(...batch);
  }
}

function fileOf(entry) {
  return new Promise((resolve, reject) => entry.file(resolve, reject));
}

/** Entries from `<input type=file webkitdirectory>`: paths start with the folder's name. */
export function entriesFromPicker(fileList) {
  const files = [...fileList];
  if (files.length === 1 && /\.zip$/i.test(files[0].name) && !files[0].webkitRelativePath.includes('/')) {
    return { root: files[0].name.replace(/\.zip$/i, ''), zip: files[0] };
  }
  const root = files[0]?.webkitRelativePath.split('/')[0] ?? 'picked folder';
  const entries = files.map((file) => ({
    path: file.webkitRelativePath.split('/').slice(1).join('/') || file.name,
    kind: 'file',
    file,
  }));
  return { root, entries };
}

/** Entries typed or pasted into the editors: [{path, text}] → tree entries. */
export function entriesFromTexts(files) {
  return files.filter(({ text }) => text.length > 0).map(({ path, text }) => ({ path, kind: 'file', text }));
}
