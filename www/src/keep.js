// Keeping and sharing pasted files without a server (issue 10 §4), one
// mechanism for every view (`keeper`):
// - Kept: in this browser's localStorage, on this device only; nothing is sent.
// - Shared: "Copy link" puts the files, deflated by the browser's own
//   CompressionStream and base64url-encoded, after the URL's `#`
//   (`#VIEW/v1.…`). Browsers never send the fragment to a server, so the link
//   is as private as the place it is pasted into, and opening it works offline.

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
      localStorage.removeItem(`apcheck.${key}`);
      return `${kib(size)} is over the ${kib(MAX_KEPT_CHARS)} a view keeps`;
    }
    localStorage.setItem(`apcheck.${key}`, JSON.stringify(files));
    return null;
  } catch {
    try {
      localStorage.removeItem(`apcheck.${key}`);
    } catch {
      // Storage is off altogether: nothing was kept before either.
    }
    return 'this browser refused (storage is off or full)';
  }
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
 * Keep & share for the view named `view`. `files()` gives its documents (and
 * the few choices that say what they are checked as) as {name: text};
 * `apply(files)` puts such files back on screen.
 * Returns the "Copy link" row with the privacy reasoning and the limits on
 * screen; `changed()` keeps the files (call it on every edit); `start()` opens
 * a link's files, else the kept ones, and resolves once they are on screen.
 */
export function keeper(view, { files, apply }) {
  const state = h('span', { id: `${view}-keep-state`, role: 'status' });
  const say = (text) => (state.textContent = text ? ` ${text}` : '');
  const changed = debounce(() => {
    const refused = keep(view, files());
    say(refused && `Not kept: ${refused}.`);
  }, 300);
  async function copyLink() {
    try {
      say('');
      await copy(`${location.href.split('#')[0]}#${view}/${await linkPayload(files())}`, 'Link copied');
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
    toast(shared ? "Opened the link's files" : 'The link holds no readable files; showing the files kept on this device');
    return shared;
  }
  async function openLink() {
    const shared = await linked();
    if (!shared) return false;
    apply(shared);
    keep(view, files());
    return true;
  }
  const element = h(
    'div.row.keep-row',
    {},
    h('button.small', { type: 'button', id: `${view}-copy-link`, onclick: copyLink }, 'Copy link'),
    h(
      'p.muted',
      { id: `${view}-keep-note` },
      `Pasted files are kept in this browser only (this device's localStorage, up to ${kib(MAX_KEPT_CHARS)} per view); nothing is sent. `,
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
    async start() {
      // A link opened in a tab that shows the page already changes only the fragment.
      window.addEventListener('hashchange', openLink);
      if (await openLink()) return;
      const kept = loadKept(view);
      if (kept) apply(kept);
    },
  };
}
