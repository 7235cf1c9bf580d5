// `npm start`'s server compresses as static hosts do: brotli or gzip by the
// request's Accept-Encoding (brotli first), identity when neither is accepted.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { pickEncoding } from '../../scripts/serve.mjs';
import { repoRoot, requireBuild, serve } from './harness.mjs';

let server;
let port;
before(async () => {
  requireBuild();
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
  const file = readFileSync(join(repoRoot, 'www/build/worker.js'));
  const br = await get('/build/worker.js', { 'Accept-Encoding': 'gzip, deflate, br' });
  assert.equal(br.headers['content-encoding'], 'br');
  assert.equal(br.headers.vary, 'Accept-Encoding');
  assert.ok(brotliDecompressSync(br.body).equals(file));
  assert.ok(br.body.length < file.length);
  const gzip = await get('/build/worker.js', { 'Accept-Encoding': 'gzip' });
  assert.equal(gzip.headers['content-encoding'], 'gzip');
  assert.ok(gunzipSync(gzip.body).equals(file));
  const plain = await get('/build/worker.js', {});
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
  const first = await get('/build/worker.js', { 'Accept-Encoding': 'br' });
  const tag = first.headers.etag;
  assert.match(tag, /^"[\w-]+-br"$/);
  assert.equal(first.headers['cache-control'], 'no-cache');
  const again = await get('/build/worker.js', { 'Accept-Encoding': 'br', 'If-None-Match': tag });
  assert.equal(again.status, 304);
  assert.equal(again.body.length, 0);
  assert.equal(again.headers.etag, tag);
  // Another encoding is another representation: its tag differs, and the br tag does not validate it.
  const gzip = await get('/build/worker.js', { 'Accept-Encoding': 'gzip', 'If-None-Match': tag });
  assert.equal(gzip.status, 200);
  assert.notEqual(gzip.headers.etag, tag);
  const page = await get('/', {});
  assert.equal((await get('/', { 'If-None-Match': `"other", ${page.headers.etag}` })).status, 304);
  assert.equal((await get('/', { 'If-None-Match': '"other"' })).status, 200);
});
