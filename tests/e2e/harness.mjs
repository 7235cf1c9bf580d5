// Shared by the end-to-end tests: the built page served on 127.0.0.1, Debian's
// Chromium driven by playwright-core, every request recorded, every CSP
// violation and page error collected, screenshots saved under target/.

import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before } from 'node:test';
import { chromium } from 'playwright-core';
import { startServer } from '../../scripts/serve.mjs';

export const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The shared folder: APCHECK_SHARED when set, else `../shared` beside the clone. */
export const shared = process.env.APCHECK_SHARED ?? join(repoRoot, '..', 'shared');

export const screensDir = join(process.env.CARGO_TARGET_DIR ?? join(repoRoot, 'target'), 'e2e-screens');

const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

export function requireBuild() {
  for (const file of ['www/index.html', 'www/build/files.json', 'www/sw.js', 'dist/apcheck.html']) {
    if (!existsSync(join(repoRoot, file))) throw new Error(`${file} is missing: run \`npm run build\` first`);
  }
}

/** The path (from www/, as the page names it) of the build's `app.js`, `app.css`, `boot.js` or `worker.js`: named by a hash of its content. */
export function builtFile(name) {
  return JSON.parse(readFileSync(join(repoRoot, 'www/build/files.json'), 'utf8'))[name];
}

export async function launch() {
  return chromium.launch({ executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
}

/** Serves www/ on a free port. */
export async function serve() {
  const server = await startServer({ port: 0 });
  return { server, origin: `http://127.0.0.1:${server.address().port}` };
}

/**
 * A page that records every request (its own and its workers'), console
 * errors, page errors and CSP violations; `init` runs in the page before its own scripts.
 */
export async function openPage(browser, url, { colorScheme = 'light', viewport = { width: 1360, height: 900 }, init } = {}) {
  const context = await browser.newContext({ colorScheme, viewport, acceptDownloads: true });
  const requests = [];
  const problems = [];
  context.on('request', (request) => requests.push(request.url()));
  const page = await context.newPage();
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console error: ${message.text()}`);
  });
  page.on('worker', (worker) => worker.on('console', (message) => message.type() === 'error' && problems.push(`worker console error: ${message.text()}`)));
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      console.error(`CSP violation: ${event.violatedDirective} ${event.blockedURI}`);
    });
  });
  if (init) await page.addInitScript(init);
  await page.goto(url);
  return { context, page, requests, problems };
}

/** Waits until the page has loaded its core and rule registry. */
export async function waitReady(page) {
  await page.waitForSelector('html[data-ready="true"]', { timeout: 10_000 });
}

/** Waits for the Check view's first verdict, then selects all of its editor's text, for what is typed next to replace; returns the editor. */
export async function selectCheckText(page) {
  await page.waitForSelector('#check-result .verdict');
  const editor = page.locator('#check-editor .cm-content');
  await editor.click();
  await page.keyboard.press('Control+a');
  return editor;
}

export async function screenshot(page, name) {
  mkdirSync(screensDir, { recursive: true });
  await page.screenshot({ path: join(screensDir, `${name}.png`), fullPage: false });
}

// The folders tests write their files to, removed when the test file ends.
const temporaryDirs = [];
after(() => temporaryDirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

/** A fresh folder under the system's temporary one, removed after the test file. */
export function temporaryDir(prefix) {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  temporaryDirs.push(dir);
  return dir;
}

/** Every file under `dir` as {path, base64}, for a synthesized drop. */
export function readFolder(dir) {
  const files = [];
  const walk = (current) => {
    for (const name of readdirSync(current).sort()) {
      const full = join(current, name);
      const stat = statSync(full);
      if (stat.isDirectory()) walk(full);
      else if (stat.isFile()) files.push({ path: relative(dir, full), base64: readFileSync(full).toString('base64') });
    }
  };
  walk(dir);
  return files;
}

/**
 * Drops a folder on `selector` the way a browser does: a DataTransfer whose
 * item answers webkitGetAsEntry() with a directory entry. (Chromium offers no
 * way to build real FileSystemEntry objects from a script, so the entries are
 * stand-ins with the same API; the Files inside are real.)
 */
export async function dropFolder(page, selector, rootName, files) {
  await page.evaluate(
    ({ selector, rootName, files }) => {
      const decode = (base64) => Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
      const makeDir = (name) => ({ name, isFile: false, isDirectory: true, children: new Map() });
      const root = makeDir(rootName);
      for (const { path, base64 } of files) {
        const parts = path.split('/');
        let dir = root;
        for (const part of parts.slice(0, -1)) {
          if (!dir.children.has(part)) dir.children.set(part, makeDir(part));
          dir = dir.children.get(part);
        }
        const name = parts.at(-1);
        const file = new File([decode(base64)], name);
        dir.children.set(name, { name, isFile: true, isDirectory: false, file: (ok) => ok(file) });
      }
      const withReaders = (entry) => {
        if (entry.isDirectory) {
          const children = [...entry.children.values()].map(withReaders);
          entry.createReader = () => {
            let given = 0;
            // Batches of 100, as Chromium's real reader answers.
            return { readEntries: (ok) => setTimeout(() => ok(children.slice(given, (given += 100)))) };
          };
        }
        return entry;
      };
      withReaders(root);
      const item = { kind: 'file', webkitGetAsEntry: () => root };
      const dataTransfer = { items: [item], files: [], types: ['Files'] };
      window.e2eDrop = () => {
        const event = new Event('drop', { bubbles: true, cancelable: true });
        Object.defineProperty(event, 'dataTransfer', { value: dataTransfer });
        document.querySelector(selector).dispatchEvent(event);
      };
    },
    { selector, rootName, files },
  );
  // Building the stand-in entries above is test set-up; the drop itself starts here.
  // From here on, a main-thread freeze shows up as a late timer: `window.longestGap` (ms).
  return page.evaluate(() => {
    const droppedAt = performance.now();
    window.longestGap = 0;
    let last = droppedAt;
    clearInterval(window.gapTimer);
    window.gapTimer = setInterval(() => {
      const now = performance.now();
      window.longestGap = Math.max(window.longestGap, now - last);
      last = now;
    }, 20);
    window.e2eDrop();
    return droppedAt;
  });
}

/**
 * Serves the built page and launches Chromium once for the calling test file,
 * and closes both after its last test; `onReady({ browser, origin })` runs
 * before the first test.
 */
export function servePageForEachFile(onReady) {
  let browser;
  let server;
  before(async () => {
    requireBuild();
    let origin;
    ({ server, origin } = await serve());
    browser = await launch();
    onReady({ browser, origin });
  });
  after(async () => {
    await browser?.close();
    server?.close();
  });
}

/** Recorded requests that left the page's origin (blob: and data: URLs stay on the device). */
export function offOrigin(requests, origin) {
  return requests.filter((url) => !url.startsWith(origin) && !url.startsWith('blob:') && !url.startsWith('data:'));
}

/** Every recorded request that is not one of the page's own assets. */
export function foreignRequests(requests, allowed) {
  return requests.filter((url) => !allowed(url));
}

/** Drops loose files (not a folder) on `selector`: [{name, text}]. */
export async function dropFiles(page, selector, files) {
  await page.evaluate(
    ({ selector, files }) => {
      const real = files.map(({ name, text }) => new File([text], name, { type: 'application/json' }));
      const items = real.map((file) => ({ kind: 'file', webkitGetAsEntry: () => ({ name: file.name, isFile: true, isDirectory: false, file: (ok) => ok(file) }) }));
      const event = new Event('drop', { bubbles: true, cancelable: true });
      Object.defineProperty(event, 'dataTransfer', { value: { items, files: real, types: ['Files'] } });
      document.querySelector(selector).dispatchEvent(event);
    },
    { selector, files },
  );
}

/**
 * Drops the corpus root `root` into the Check view and waits until its verdict
 * is on screen (scrolled there on a narrow or zoomed page); returns whether
 * the verdict area is an announced live region.
 */
export async function dropAndSeeVerdict(page, root) {
  await dropFolder(page, '#check-drop', root, readFolder(join(shared, 'corpus/real', root)));
  await page.waitForFunction((root) => document.querySelector('#check-result .hops')?.textContent.includes(root), root);
  await page.waitForFunction(() => {
    const top = document.querySelector('#check-result > :not(.empty)')?.getBoundingClientRect().top;
    return top >= 0 && top < innerHeight;
  }, null, { timeout: 5000 });
  return (await page.locator('#check-result').getAttribute('aria-live')) === 'polite';
}
