#!/usr/bin/env node
// Serves www/ on 127.0.0.1 with the page's Content-Security-Policy as a header
// (the same text as index.html's meta tag), compressed as static hosts serve
// it: brotli or gzip, whichever the browser accepts (brotli first), each file
// compressed once and kept until it changes. The build's files carry a hash of
// their content in their names (scripts/build-web.mjs): those are immutable,
// kept by the browser for a year without asking. Everything else (index.html,
// which names them, and sw.js) is `no-cache` with an ETag (a hash of the file
// and its encoding), so a revisit costs a 304, not the whole page again.
// Node's standard library only.
//
//   node scripts/serve.mjs [--port N]   (default 8787; 0 or a busy port: a free one)

import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { createServer } from 'node:http';
import { dirname, extname, join, normalize, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlibConstants, gzip } from 'node:zlib';

const www = join(dirname(fileURLToPath(import.meta.url)), '..', 'www');

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.wasm': 'application/wasm',
  '.json': 'application/json; charset=utf-8',
  '.webmanifest': 'application/manifest+json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.txt': 'text/plain; charset=utf-8',
};

// What static hosts compress: text, and wasm. Brotli at 7 (11 takes seconds per
// megabyte, too slow for a first request), gzip at 9.
const COMPRESSIBLE = new Set(['.html', '.js', '.css', '.wasm', '.json', '.webmanifest', '.svg', '.txt']);
const ENCODERS = {
  br: (body) => promisify(brotliCompress)(body, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 7, [zlibConstants.BROTLI_PARAM_SIZE_HINT]: body.length } }),
  gzip: (body) => promisify(gzip)(body, { level: 9 }),
};

/** The encoding to send for an `Accept-Encoding` header: `br`, `gzip` or null. */
export function pickEncoding(accept = '') {
  const offered = new Map();
  for (const part of accept.split(',')) {
    const [name, ...parameters] = part.trim().toLowerCase().split(';');
    const q = parameters.map((p) => p.trim()).find((p) => p.startsWith('q='));
    offered.set(name, q ? Number(q.slice(2)) : 1);
  }
  const accepts = (name) => (offered.get(name) ?? offered.get('*') ?? 0) > 0;
  return ['br', 'gzip'].find(accepts) ?? null;
}

// path → {mtimeMs, size, hash, encodings: {br, gzip}}: each file hashed and compressed once per change.
const known = new Map();

async function entryOf(file, body) {
  const { mtimeMs, size } = await stat(file);
  let entry = known.get(file);
  if (!entry || entry.mtimeMs !== mtimeMs || entry.size !== size) {
    entry = { mtimeMs, size, hash: createHash('sha256').update(body).digest('base64url').slice(0, 22), encodings: {} };
    known.set(file, entry);
  }
  return entry;
}

// A file the build named by its content: `build/app.0123456789abcdef.js`.
const HASHED = /^\/build\/[\w-]+\.[0-9a-f]{16}\.\w+$/;

/** The Cache-Control for `path`: a file named by its content never changes under that name. */
export function cacheControl(path) {
  return HASHED.test(path) ? 'public, max-age=31536000, immutable' : 'no-cache';
}

/** Whether an `If-None-Match` header names `tag` (or is `*`). */
export function matchesTag(header = '', tag) {
  return header.split(',').some((part) => {
    const given = part.trim().replace(/^W\//, '');
    return given === '*' || given === tag;
  });
}

async function contentSecurityPolicy() {
  const html = await readFile(join(www, 'index.html'), 'utf8');
  const policy = html.match(/<meta http-equiv="Content-Security-Policy" content="([^"]*)">/)?.[1];
  if (!policy) throw new Error('www/index.html has no Content-Security-Policy meta tag');
  return policy;
}

export async function startServer({ port = 8787, host = '127.0.0.1' } = {}) {
  const policy = await contentSecurityPolicy();
  const headers = {
    // frame-ancestors only works as a header: nobody may frame the page.
    'Content-Security-Policy': `${policy}; frame-ancestors 'none'`,
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
    'Cross-Origin-Opener-Policy': 'same-origin',
    'Cross-Origin-Resource-Policy': 'same-origin',
  };
  const server = createServer(async (request, response) => {
    let path;
    try {
      path = decodeURIComponent(new URL(request.url, 'http://localhost').pathname);
    } catch {
      response.writeHead(400, { ...headers, 'Cache-Control': 'no-cache' }).end();
      return;
    }
    const file = normalize(join(www, path.endsWith('/') ? `${path}index.html` : path));
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      response.writeHead(405, { ...headers, 'Cache-Control': 'no-cache' }).end();
      return;
    }
    if (!file.startsWith(www + sep)) {
      response.writeHead(403, { ...headers, 'Cache-Control': 'no-cache' }).end();
      return;
    }
    try {
      let body = await readFile(file);
      const entry = await entryOf(file, body);
      const type = { 'Content-Type': TYPES[extname(file)] ?? 'application/octet-stream' };
      const encoding = COMPRESSIBLE.has(extname(file)) ? pickEncoding(request.headers['accept-encoding']) : null;
      // Each encoding is its own representation, with its own tag.
      const tag = `"${entry.hash}${encoding ? `-${encoding}` : ''}"`;
      const vary = COMPRESSIBLE.has(extname(file)) ? { Vary: 'Accept-Encoding' } : {};
      const caching = { 'Cache-Control': cacheControl(path) };
      if (matchesTag(request.headers['if-none-match'], tag)) {
        response.writeHead(304, { ...headers, ...caching, ...vary, ETag: tag }).end();
        return;
      }
      if (encoding) {
        entry.encodings[encoding] ??= ENCODERS[encoding](body);
        body = await entry.encodings[encoding];
        type['Content-Encoding'] = encoding;
      }
      // The service worker fetches the page's own files to keep them: its policy lets it reach this origin, and nothing else.
      const workerPolicy = path === '/sw.js' ? { 'Content-Security-Policy': "default-src 'none'; connect-src 'self'" } : {};
      response.writeHead(200, { ...headers, ...type, ...caching, ...vary, ...workerPolicy, ETag: tag, 'Content-Length': body.length });
      response.end(request.method === 'HEAD' ? undefined : body);
    } catch {
      response.writeHead(404, { ...headers, 'Cache-Control': 'no-cache', 'Content-Type': 'text/plain; charset=utf-8' }).end('not found\n');
    }
  });
  await new Promise((resolve, reject) => {
    server.once('error', (error) => {
      if (error.code !== 'EADDRINUSE' || port === 0) return reject(error);
      server.listen(0, host, resolve);
    });
    server.listen(port, host, resolve);
  });
  return server;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const portFlag = process.argv.indexOf('--port');
  const port = portFlag > 0 ? Number(process.argv[portFlag + 1]) : Number(process.env.PORT ?? 8787);
  const server = await startServer({ port });
  console.log(`apcheck page: http://127.0.0.1:${server.address().port}/  (Ctrl-C to stop)`);
}
