// Keeping and sharing pasted files without a server (issue 10 §4).
// - Kept: in this browser's localStorage, on this device only; nothing is sent.
// - Shared: "Copy link" puts the files, deflated by the browser's own
//   CompressionStream and base64url-encoded, after the URL's `#`. Browsers
//   never send the fragment to a server, so the link is as private as the
//   place it is pasted into, and opening it works offline.

/** The longest fragment a link may carry: chat apps and mail clients cut longer URLs. */
export const MAX_LINK_CHARS = 32 * 1024;
const LINK_PREFIX = 'v1.';

/** The kept files of `key` ({name: text}), or null when none are kept (or storage is off). */
export function loadKept(key) {
  try {
    const text = localStorage.getItem(`apcheck.${key}`);
    return text === null ? null : JSON.parse(text);
  } catch {
    return null;
  }
}

/** Keeps `files` ({name: text}) under `key`; false when the browser refuses (storage off or full). */
export function keep(key, files) {
  try {
    localStorage.setItem(`apcheck.${key}`, JSON.stringify(files));
    return true;
  } catch {
    return false;
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
    throw new Error(`the files make a link of ${Math.ceil(payload.length / 1024)} KiB, over the ${MAX_LINK_CHARS / 1024} KiB a link can carry safely: share the files themselves`);
  }
  return payload;
}

/** The files a fragment payload holds, or null when `payload` is not one (or is damaged). */
export async function filesFromLink(payload) {
  if (!payload?.startsWith(LINK_PREFIX) || payload.length > MAX_LINK_CHARS) return null;
  try {
    const bytes = await through(new DecompressionStream('deflate-raw'), fromBase64Url(payload.slice(LINK_PREFIX.length)));
    const files = JSON.parse(new TextDecoder().decode(bytes));
    const isFiles = files && typeof files === 'object' && !Array.isArray(files) && Object.values(files).every((text) => typeof text === 'string');
    return isFiles ? files : null;
  } catch {
    return null;
  }
}
