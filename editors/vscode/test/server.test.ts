// The server's choice of executable and the restart decision (src/server.ts).
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { test } from 'node:test';
import { bundledBinary, restartNeeded, serverCommand } from '../src/server';

const extension = path.join(path.sep, 'ext');
const linuxBinary = path.join(extension, 'bin', 'apcheck');
const windowsBinary = path.join(extension, 'bin', 'apcheck.exe');
const bundled = (file: string) => file === linuxBinary || file === windowsBinary;
const none = () => false;

test('a path the user set wins over the bundled binary', () => {
  assert.equal(serverCommand('/opt/apcheck/bin/apcheck', extension, 'linux', bundled), '/opt/apcheck/bin/apcheck');
  assert.equal(serverCommand('apcheck', extension, 'linux', bundled), 'apcheck');
  assert.equal(serverCommand('  /opt/apcheck  ', extension, 'linux', bundled), '/opt/apcheck');
});

test('no path set: the bundled binary, named for the platform', () => {
  assert.equal(serverCommand(undefined, extension, 'linux', bundled), linuxBinary);
  assert.equal(serverCommand(undefined, extension, 'darwin', bundled), linuxBinary);
  assert.equal(serverCommand(undefined, extension, 'win32', bundled), windowsBinary);
  assert.equal(bundledBinary(extension, 'win32'), windowsBinary);
});

test('a blank path counts as none', () => {
  assert.equal(serverCommand('', extension, 'linux', bundled), linuxBinary);
  assert.equal(serverCommand(' \t', extension, 'linux', bundled), linuxBinary);
});

test('no path set and nothing bundled: apcheck on PATH', () => {
  assert.equal(serverCommand(undefined, extension, 'linux', none), 'apcheck');
  assert.equal(serverCommand('', extension, 'win32', none), 'apcheck');
});

test('a new command or new rule docs restart the server; the same settings keep it', () => {
  const running = { command: linuxBinary, ruleDocs: 'https://apcheck.dev/rules/' };
  assert.equal(restartNeeded(running, { ...running }), false);
  assert.equal(restartNeeded(running, { ...running, command: '/opt/apcheck' }), true);
  assert.equal(restartNeeded(running, { ...running, ruleDocs: 'http://127.0.0.1:8787/#rules/' }), true);
  assert.equal(restartNeeded(running, { ...running, ruleDocs: undefined }), true);
});

test('with no server running (its start failed), any change tries again', () => {
  assert.equal(restartNeeded(undefined, { command: 'apcheck', ruleDocs: undefined }), true);
});
