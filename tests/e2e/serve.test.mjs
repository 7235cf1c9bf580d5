// `npm start`'s server compresses as static hosts do: brotli or gzip by the
// request's Accept-Encoding (brotli first), identity when neither is accepted;
// the build's content-hashed files are immutable, the page and its service
// worker are revalidated (no-cache, with an ETag).

import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { pickEncoding } from '../../scripts/serve.mjs';
import { builtFile, repoRoot, requireBuild, serve } from './harness.mjs';

let server;
let port;
let worker;
before(async () => {
  requireBuild();
  worker = `/${builtFile('worker.js')}`;
  ({ server } = await serve());
  port = server.address().port;
});
after(() => server?.close());

function get(path, headers) {
  return new Promise((resolve, reject) => {
    request({ host: '127.0.0.1', port, path, headers }, (response) => {
      const chunks = [];
      response.on('data', (chunk) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode, headers: response.headers, body: Buffer.concat(chunks) }));
    })
      .on('error', reject)
      .end();
  });
}

test('the worker is sent as brotli, gzip or as it is, whichever the browser accepts', async () => {
  const file = readFileSync(join(repoRoot, 'www', worker));
  const br = await get(worker, { 'Accept-Encoding': 'gzip, deflate, br' });
  assert.equal(br.headers['content-encoding'], 'br');
  assert.equal(br.headers.vary, 'Accept-Encoding');
  assert.ok(brotliDecompressSync(br.body).equals(file));
  assert.ok(br.body.length < file.length);
  const gzip = await get(worker, { 'Accept-Encoding': 'gzip' });
  assert.equal(gzip.headers['content-encoding'], 'gzip');
  assert.ok(gunzipSync(gzip.body).equals(file));
  const plain = await get(worker, {});
  assert.equal(plain.headers['content-encoding'], undefined);
  assert.ok(plain.body.equals(file));
  // The page's headers stay on compressed answers.
  assert.match(br.headers['content-security-policy'], /connect-src 'none'/);
  assert.equal(Number(br.headers['content-length']), br.body.length);
});

test('quality values are honoured', () => {
  assert.equal(pickEncoding('br;q=0, gzip;q=0.5'), 'gzip');
  assert.equal(pickEncoding('identity'), null);
  assert.equal(pickEncoding('*'), 'br');
  assert.equal(pickEncoding('*, br;q=0'), 'gzip');
  assert.equal(pickEncoding(undefined), null);
});

test('a revisit costs a 304: every answer has an ETag, one per encoding, and a matching If-None-Match gets no body', async () => {
  const first = await get(worker, { 'Accept-Encoding': 'br' });
  const tag = first.headers.etag;
  assert.match(tag, /^"[\w-]+-br"$/);
  const again = await get(worker, { 'Accept-Encoding': 'br', 'If-None-Match': tag });
  assert.equal(again.status, 304);
  assert.equal(again.body.length, 0);
  assert.equal(again.headers.etag, tag);
  // Another encoding is another representation: its tag differs, and the br tag does not validate it.
  const gzip = await get(worker, { 'Accept-Encoding': 'gzip', 'If-None-Match': tag });
  assert.equal(gzip.status, 200);
  assert.notEqual(gzip.headers.etag, tag);
  const page = await get('/', {});
  assert.equal(page.headers['cache-control'], 'no-cache');
  assert.equal((await get('/', { 'If-None-Match': `"other", ${page.headers.etag}` })).status, 304);
  assert.equal((await get('/', { 'If-None-Match': '"other"' })).status, 200);
});

test('the build files are named by their content and served immutable; the page and its service worker are revalidated', async () => {
  const page = (await get('/', {})).body.toString();
  for (const name of ['app.js', 'app.css', 'worker.js']) {
    const path = builtFile(name);
    assert.match(path, /^build\/(app|worker)\.[0-9a-f]{16}\.(js|css)$/);
    const body = readFileSync(join(repoRoot, 'www', path));
    assert.equal(path.split('.')[1], createHash('sha256').update(body).digest('hex').slice(0, 16), `${path} is named by its content`);
    const answer = await get(`/${path}`, { 'Accept-Encoding': 'br' });
    assert.equal(answer.status, 200);
    assert.equal(answer.headers['cache-control'], 'public, max-age=31536000, immutable');
    assert.ok(answer.headers.etag);
    if (name !== 'worker.js') assert.ok(page.includes(`"${path}"`), `index.html names ${path}`);
  }
  // The page names the worker through its script.
  assert.ok(readFileSync(join(repoRoot, 'www', builtFile('app.js')), 'utf8').includes(builtFile('worker.js')));
  for (const path of ['/', '/index.html', '/sw.js', '/app.webmanifest']) {
    const answer = await get(path, {});
    assert.equal(answer.headers['cache-control'], 'no-cache', path);
    assert.equal((await get(path, { 'If-None-Match': answer.headers.etag })).status, 304, path);
  }
  // The service worker keeps this build's files, by their hashed names.
  const sw = (await get('/sw.js', {})).body.toString();
  for (const name of ['app.js', 'app.css', 'worker.js']) assert.ok(sw.includes(builtFile(name)), `sw.js keeps ${builtFile(name)}`);
});
