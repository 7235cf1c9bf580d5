// Keeping and sharing pasted files without a server, one
// mechanism for every view (`keeper`):
// - Kept: in this browser's localStorage, on this device only; nothing is sent.
// - Shared: "Copy link" puts the files, deflated by the browser's own
//   CompressionStream and base64url-encoded, after the URL's `#`
//   (`#VIEW/v1.…`). Browsers never send the fragment to a server, so the link
//   is as private as the place it is pasted into, and opening it works offline.
// - A package on screen (a picked folder, a drop, a zip) is kept and shared the
//   same way, as its files (`packageFiles`), so that a link or a reload shows
//   the verdict the sender saw; one too big is refused with its size named.

import { copy, debounce, h, toast } from './util.js';

/** The longest fragment a link may carry: chat apps and mail clients cut longer URLs. */
export const MAX_LINK_CHARS = 32 * 1024;
/** The most text one view keeps: localStorage holds about 5 MiB for the whole page, shared by the views. */
export const MAX_KEPT_CHARS = 1024 * 1024;
const LINK_PREFIX = 'v1.';
const kib = (chars) => `${Math.ceil(chars / 1024)} KiB`;

const isFiles = (files) => files && typeof files === 'object' && !Array.isArray(files) && Object.values(files).every((text) => typeof text === 'string');

/** The kept files of `key` ({name: text}), or null when none are kept (or storage is off). */
export function loadKept(key) {
  try {
    const files = JSON.parse(localStorage.getItem(`apcheck.${key}`));
    return isFiles(files) ? files : null;
  } catch {
    return null;
  }
}

/**
 * Keeps `files` ({name: text}) under `key`. Returns null when kept, else why
 * not; a reload must then not bring back older files, so those are dropped.
 */
export function keep(key, files) {
  // Measured before JSON is made of it: a 10 MB diff must not be serialized on every keystroke.
  const size = Object.values(files).reduce((sum, text) => sum + text.length, 0);
  try {
    if (size > MAX_KEPT_CHARS) {
      forget(key);
      return `${kib(size)} is over the ${kib(MAX_KEPT_CHARS)} a view keeps`;
    }
    localStorage.setItem(`apcheck.${key}`, JSON.stringify(files));
    return null;
  } catch {
    forget(key);
    return 'this browser refused (storage is off or full)';
  }
}

function forget(key) {
  try {
    localStorage.removeItem(`apcheck.${key}`);
  } catch {
    // Storage is off altogether: nothing was kept before either.
  }
}

// A package travels as its files, under keys no pasted file uses: `package`
// (its root's name), then `zip` (the archive itself) or each entry as
// `text:PATH` (UTF-8, byte for byte), `bytes:PATH` (base64url) or `dir:PATH`.
const packed = new WeakMap();

/**
 * The files that carry `given` (a package from files.js), read once per
 * package; rejects, naming the size, when it is over MAX_KEPT_CHARS bytes.
 */
export function packageFiles(given) {
  if (!packed.has(given)) packed.set(given, readPackage(given));
  return packed.get(given);
}

async function readPackage(given) {
  const blobs = given.zip ? [given.zip] : given.entries.filter((entry) => entry.kind === 'file').map((entry) => entry.file ?? new Blob([entry.bytes ?? entry.text]));
  const size = blobs.reduce((sum, blob) => sum + blob.size, 0);
  if (size > MAX_KEPT_CHARS) throw new Error(`the package ${given.root} is ${kib(size)}, over the ${kib(MAX_KEPT_CHARS)} the page keeps or shares: share the folder itself`);
  const files = { package: given.root };
  if (given.zip) {
    files.zip = toBase64Url(new Uint8Array(await given.zip.arrayBuffer()));
    return files;
  }
  // ignoreBOM: the text must encode back to the very bytes read.
  const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
  for (const entry of given.entries) {
    if (entry.kind === 'dir') files[`dir:${entry.path}`] = '';
    if (entry.kind !== 'file') continue;
    const bytes = entry.bytes ?? new TextEncoder().encode(entry.text ?? '');
    const read = entry.file ? new Uint8Array(await entry.file.arrayBuffer()) : bytes;
    try {
      files[`text:${entry.path}`] = utf8.decode(read);
    } catch {
      files[`bytes:${entry.path}`] = toBase64Url(read);
    }
  }
  return files;
}

/** The package that `files` carry (as `packageFiles` made them), or null when they carry none. */
export function packageFrom(files) {
  if (typeof files.package !== 'string') return null;
  const root = files.package;
  if (files.zip !== undefined) return { root, zip: new File([fromBase64Url(files.zip)], `${root}.zip`) };
  const entries = [];
  for (const [key, value] of Object.entries(files)) {
    const [, kind, path] = key.match(/^(text|bytes|dir):(.+)$/s) ?? [];
    if (kind === 'text') entries.push({ path, kind: 'file', text: value });
    if (kind === 'bytes') entries.push({ path, kind: 'file', bytes: fromBase64Url(value) });
    if (kind === 'dir') entries.push({ path, kind: 'dir' });
  }
  const given = { root, entries };
  // Kept again as it came: no need to read it back.
  packed.set(given, Promise.resolve(files));
  return given;
}

async function through(stream, bytes) {
  return new Uint8Array(await new Response(new Blob([bytes]).stream().pipeThrough(stream)).arrayBuffer());
}

function toBase64Url(bytes) {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function fromBase64Url(text) {
  const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
  return Uint8Array.from(binary, (char) => char.charCodeAt(0));
}

/** The fragment payload for `files` ({name: text}); throws when it is over MAX_LINK_CHARS. */
export async function linkPayload(files) {
  const deflated = await through(new CompressionStream('deflate-raw'), new TextEncoder().encode(JSON.stringify(files)));
  const payload = LINK_PREFIX + toBase64Url(deflated);
  if (payload.length > MAX_LINK_CHARS) {
    throw new Error(`the files make a link of ${kib(payload.length)}, over the ${kib(MAX_LINK_CHARS)} a link can carry safely: share the files themselves`);
  }
  return payload;
}

/** The files a fragment payload holds, or null when `payload` is not one (or is damaged). */
export async function filesFromLink(payload) {
  if (!payload?.startsWith(LINK_PREFIX) || payload.length > MAX_LINK_CHARS) return null;
  try {
    const bytes = await through(new DecompressionStream('deflate-raw'), fromBase64Url(payload.slice(LINK_PREFIX.length)));
    const files = JSON.parse(new TextDecoder().decode(bytes));
    return isFiles(files) ? files : null;
  } catch {
    return null;
  }
}

/**
 * Keep & share for the view named `view`. `files()` gives (or resolves with)
 * its documents (and the few choices that say what they are checked as, and a
 * package's `packageFiles`) as {name: text}, or rejects saying why it cannot;
 * `apply(files)` puts such files back on screen.
 * Returns the "Copy link" row with the privacy reasoning and the limits on
 * screen; `changed()` keeps the files (call it on every edit), `keepNow()`
 * at once (a package given: not an edit that more keystrokes follow); `start()` opens
 * a link's files, else the kept ones, and resolves once they are on screen.
 */
export function keeper(view, { files, apply }) {
  const state = h('span', { id: `${view}-keep-state`, role: 'status' });
  const say = (text) => (state.textContent = text ? ` ${text}` : '');
  async function keepNow() {
    let refused;
    try {
      refused = keep(view, await files());
    } catch (error) {
      forget(view);
      refused = error.message;
    }
    say(refused && `Not kept: ${refused}.`);
  }
  const changed = debounce(keepNow, 300);
  async function copyLink() {
    try {
      say('');
      const shared = await files();
      await copy(`${location.href.split('#')[0]}#${view}/${await linkPayload(shared)}`, 'Link copied');
      // Said plainly: a link made after a pick carries the package, not the pasted files.
      if (shared.package !== undefined) say(`The link carries the package ${shared.package}, as checked here.`);
    } catch (error) {
      toast(`No link: ${error.message}`);
      say(`No link: ${error.message}.`);
    }
  }
  /** The files of a link to this view in the address, else null. */
  async function linked() {
    const [name, payload] = location.hash.replace(/^#/, '').split('/');
    if (name !== view || !payload) return null;
    const shared = await filesFromLink(payload);
    // The address stops naming the link's files once they can be edited.
    history.replaceState(null, '', `#${view}`);
    toast(!shared ? 'The link holds no readable files; showing the files kept on this device' : shared.package !== undefined ? `Opened the link's package ${shared.package}` : "Opened the link's files");
    return shared;
  }
  async function openLink() {
    const shared = await linked();
    if (!shared) return false;
    await apply(shared);
    await keepNow();
    return true;
  }
  const element = h(
    'div.row.keep-row',
    {},
    h('button.small', { type: 'button', id: `${view}-copy-link`, onclick: copyLink }, 'Copy link'),
    h(
      'p.muted',
      { id: `${view}-keep-note` },
      `Pasted files, or the package picked, are kept in this browser only (this device's localStorage, up to ${kib(MAX_KEPT_CHARS)} per view); nothing is sent. `,
      h('em', {}, 'Copy link'),
      ' puts them, compressed, after the ',
      h('code', {}, '#'),
      ` of the page's address, which browsers never send to a server. A link carries up to ${kib(MAX_LINK_CHARS)}.`,
      state,
    ),
  );
  return {
    element,
    changed,
    keepNow,
    async start() {
      // A link opened in a tab that shows the page already changes only the fragment.
      window.addEventListener('hashchange', openLink);
      if (await openLink()) return;
      const kept = loadKept(view);
      if (kept) await apply(kept);
    },
  };
}
