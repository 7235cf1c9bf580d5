// Offline after the first visit: the served page installs a
// service worker that keeps this build, so with the server gone the page
// reloads, checks, cancels a job (its worker restarts from the kept build) and
// checks again. The page is an installable web app (its manifest, an icon).

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { builtFile, launch, offOrigin, openPage, requireBuild, screenshot, selectCheckText, serve, waitReady } from './harness.mjs';

test('with the server gone, the page reloads, checks, cancels and checks again', async () => {
  requireBuild();
  const { server, origin } = await serve();
  const browser = await launch();
  try {
    const { context, page, requests, problems } = await openPage(browser, `${origin}/#check`);
    await waitReady(page);
    // The first visit: the service worker installs and takes the page over.
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null, null, { timeout: 20_000 });
    // It keeps this build: the page and the files named by their content.
    const kept = await page.evaluate(async () => {
      const names = await caches.keys();
      const requests = await Promise.all(names.map(async (name) => (await caches.open(name)).keys()));
      return requests.flat().map((request) => new URL(request.url).pathname);
    });
    for (const path of ['/', ...['app.js', 'app.css', 'boot.js', 'worker.js'].map((name) => `/${builtFile(name)}`)]) assert.ok(kept.includes(path), `the service worker keeps ${path}: ${kept}`);
    // The workers keep the inflated wasm, named by its content, for the next start to compile as it streams.
    const wasm = await page.evaluate(async () => {
      const name = (await caches.keys()).find((cache) => /^apcheck-wasm-[0-9a-f]{16}$/.test(cache));
      const [request] = name ? await (await caches.open(name)).keys() : [];
      const response = request && (await caches.match(request, { cacheName: name }));
      return response && { path: new URL(request.url).pathname, type: response.headers.get('content-type'), magic: [...new Uint8Array(await response.arrayBuffer()).slice(0, 4)] };
    });
    assert.ok(wasm, 'the workers keep the inflated wasm in Cache Storage');
    assert.match(wasm.path, /^\/build\/apcheck\.[0-9a-f]{16}\.wasm$/);
    assert.equal(wasm.type, 'application/wasm');
    assert.deepEqual(wasm.magic, [0, 0x61, 0x73, 0x6d]);
    const cdp = await context.newCDPSession(page);
    // The manifest parses with no error (installability itself Chromium only judges outside a test's incognito profile).
    const { errors, data } = await cdp.send('Page.getAppManifest');
    assert.deepEqual(errors, []);
    const manifest = JSON.parse(data);
    assert.equal(manifest.display, 'standalone');
    assert.equal(manifest.icons[0].src, 'icon.svg');

    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await page.reload();
    await waitReady(page);
    await selectCheckText(page);
    await page.keyboard.insertText('{"$schema": "https://agent-plugins.org/schemas/1.0.0/plugin.schema.json", "name": "offline-plugin", "version": "1.0.0"}');
    await page.locator('#check-result .verdict', { hasText: 'offline-plugin' }).waitFor({ timeout: 10_000 });

    // A long job, cancelled: its view's next job needs a new worker, from the kept build.
    await page.goto(`${origin}/#diff`);
    await page.waitForSelector('#diff-root .paths li');
    const n = 40000;
    const a = JSON.stringify({ items: Array.from({ length: n }, (_, i) => ({ v: i, s: `x${i}` })) });
    const b = JSON.stringify({ items: Array.from({ length: n }, (_, i) => ({ v: (i * 7919) % n, s: `y${i}` })) });
    await page.setInputFiles('#diff-load-a', { name: 'a.json', mimeType: 'application/json', buffer: Buffer.from(a) });
    await page.setInputFiles('#diff-load-b', { name: 'b.json', mimeType: 'application/json', buffer: Buffer.from(b) });
    await page.waitForSelector('#progress:not([hidden])', { timeout: 20_000 });
    await page.keyboard.press('Escape');
    await page.waitForSelector('#progress', { state: 'hidden' });
    await page.setInputFiles('#diff-load-a', { name: 'a.json', mimeType: 'application/json', buffer: Buffer.from('{"a": 1}') });
    await page.setInputFiles('#diff-load-b', { name: 'b.json', mimeType: 'application/json', buffer: Buffer.from('{"a": 2}') });
    await page.locator('#diff-root .paths li', { hasText: '/a' }).waitFor({ timeout: 10_000 });
    await screenshot(page, 'offline-after-cancel');
    assert.deepEqual(problems, []);
    assert.deepEqual(offOrigin(requests, origin), []);
    await context.close();
  } finally {
    await browser.close();
    server.close();
  }
});
