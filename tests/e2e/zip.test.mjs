// Zips opened in the worker: inflated with the limits applied as
// it goes (a 10 MB zip expanding to 10 GiB does not take the tab down),
// entries that would leave the folder reported rather than dropped, and
// symlink entries kept as links, judged exactly as the CLI judges them on disk.

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import { deflateSync, zipSync } from 'fflate';
import { openPage, repoRoot, servePageForEachFile, temporaryDir, waitReady } from './harness.mjs';

let browser;
let origin;
servePageForEachFile((served) => ({ browser, origin } = served));

const cli = process.env.APCHECK_BIN ?? join(process.env.CARGO_TARGET_DIR ?? join(repoRoot, 'target'), 'debug', 'apcheck');
const MANIFEST = '{"$schema": "https://agent-plugins.org/schemas/1.0.0/plugin.schema.json", "name": "zipped"}\n';

/**
 * A zip whose `count` entries all share one deflated payload of `size` zero
 * bytes: small on disk, `count × size` inflated. (fflate's zipSync would
 * deflate each copy again; this writes the records by hand.)
 */
function bombZip(count, size) {
  const payload = deflateSync(new Uint8Array(size), { level: 9 });
  const locals = [];
  const centrals = [];
  let offset = 0;
  const manifest = Buffer.from(MANIFEST);
  const files = [{ name: 'bomb/plugin.json', data: manifest, method: 0, size: manifest.length }];
  for (let i = 0; i < count; i++) files.push({ name: `bomb/skills/s${i}/blob.bin`, data: payload, method: 8, size });
  for (const file of files) {
    const name = Buffer.from(file.name);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(file.method, 8);
    local.writeUInt32LE(file.data.length, 18);
    local.writeUInt32LE(file.size >>> 0, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(file.method, 10);
    central.writeUInt32LE(file.data.length, 20);
    central.writeUInt32LE(file.size >>> 0, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, Buffer.from(file.data));
    centrals.push(central, name);
    offset += 30 + name.length + file.data.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(files.length, 8);
  end.writeUInt16LE(files.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

async function checkZip(page, name, buffer) {
  await page.setInputFiles('#check-pick-zip', { name: `${name}.zip`, mimeType: 'application/zip', buffer });
  await page.waitForFunction(
    (root) => {
      const result = document.querySelector('#check-result');
      return result.dataset.stale !== 'true' && (result.querySelector('.hops')?.textContent.includes(root) || /failed/.test(result.textContent));
    },
    name,
    { timeout: 60_000 },
  );
  const [download] = await Promise.all([page.waitForEvent('download'), page.locator('#check-result').getByRole('button', { name: 'JSON', exact: true }).click()]);
  // The CLI's one JSON shape; a zip holds one plugin root.
  const { packages } = JSON.parse(await readFile(await download.path(), 'utf8'));
  assert.equal(packages.length, 1);
  return packages[0];
}

test('a 10 MB zip expanding to 10 GiB is read within the limits, and the check says it is partial', { timeout: 120_000 }, async () => {
  const zip = bombZip(160, 64 << 20);
  assert.ok(zip.length < 12 << 20, `${zip.length} bytes`);
  const { context, page, problems } = await openPage(browser, `${origin}/#check`);
  await waitReady(page);
  const report = await checkZip(page, 'bomb', zip);
  const partial = report.diagnostics.find((d) => d.code === 'AP007');
  assert.ok(partial, JSON.stringify(report.diagnostics.map((d) => d.code)));
  assert.match(partial.message, /max_total_bytes|cut at the size limit/);
  assert.equal(report.plugin.name, 'zipped');
  assert.deepEqual(problems, []);
  await context.close();
});

test('entries with ../ or absolute paths are reported, and ../ is never taken for the top folder', async () => {
  const { context, page, problems } = await openPage(browser, `${origin}/#check`);
  await waitReady(page);
  const text = (s) => new TextEncoder().encode(s);
  const report = await checkZip(page, 'escape', Buffer.from(zipSync({ '../plugin.json': text(MANIFEST), '../skills/x/SKILL.md': text('---\nname: x\n---\n') })));
  assert.equal(report.plugin.state, 'rejected', 'the entries outside the zip were used');
  const partial = report.diagnostics.find((d) => d.code === 'AP007');
  assert.ok(partial, 'the left-out entries were not reported');
  assert.match(partial.message, /\.\.\/plugin\.json/);

  const mixed = await checkZip(page, 'mixed', Buffer.from(zipSync({ 'plugin.json': text(MANIFEST), '/etc/passwd': text('x') })));
  assert.equal(mixed.plugin.state, 'loaded');
  assert.match(mixed.diagnostics.find((d) => d.code === 'AP007')?.message ?? '', /absolute path/);
  assert.deepEqual(problems, []);
  await context.close();
});

test('a symlink entry stays a link: one pointing outside is AP101, exactly as the CLI reports it', async () => {
  const { context, page, problems } = await openPage(browser, `${origin}/#check`);
  await waitReady(page);
  const text = (s) => new TextEncoder().encode(s);
  const link = (target) => [text(target), { os: 3, attrs: (0o120777 << 16) >>> 0 }];
  const report = await checkZip(page, 'linked', Buffer.from(zipSync({ 'linked/plugin.json': text(MANIFEST), 'linked/mcp.json': link('../../outside.json') })));

  const disk = temporaryDir('apcheck-zip-');
  const root = join(disk, 'linked');
  mkdirSync(root);
  writeFileSync(join(root, 'plugin.json'), MANIFEST);
  symlinkSync('../../outside.json', join(root, 'mcp.json'));
  let printed;
  try {
    printed = execFileSync(cli, ['check', 'linked', '--format', 'json'], { cwd: disk, encoding: 'utf8' });
  } catch (error) {
    printed = error.stdout;
  }
  const [expected] = JSON.parse(printed).packages;
  assert.ok(report.diagnostics.some((d) => d.code === 'AP101'), JSON.stringify(report.diagnostics));
  assert.deepEqual(report.diagnostics, expected.diagnostics);
  assert.deepEqual(report.mcp, expected.mcp);
  assert.deepEqual(problems, []);
  await context.close();
});
