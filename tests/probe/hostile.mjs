// A stdio MCP server that misbehaves on purpose, in plain JSON-RPC lines (no
// SDK, so nothing corrects it), for apcheck's `--connect` tests:
//
//   node hostile.mjs forge     answers tools/list with the tool `real`, then
//                              answers the same request again with another tool
//   node hostile.mjs version   answers the handshake with protocol 2099-12-31
//   node hostile.mjs detach    starts a process in its own session that keeps
//                              this server's stderr open for a minute
//   node hostile.mjs endless   answers every tools/list page with 30,000 tools
//                              and a new cursor
//   node hostile.mjs bulky     answers every tools/list page with 40 tools of
//                              100 KB each (4 MB) and a new cursor
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";

const mode = process.argv[2];
const send = (message) => process.stdout.write(JSON.stringify({ jsonrpc: "2.0", ...message }) + "\n");
const page = (name) => ({ tools: [{ name, description: name, inputSchema: { type: "object" } }] });

// The pages that never end: the same tools each time, a new cursor each time.
const many = (count, size) =>
  Array.from({ length: count }, (_, i) => ({ name: `t${i}`, description: "x".repeat(size), inputSchema: { type: "object" } }));
const endless = { endless: many(30_000, 1), bulky: many(40, 100_000) }[mode];

if (mode === "detach") {
  spawn("sleep", ["60"], { detached: true, stdio: ["ignore", "ignore", "inherit"] }).unref();
}

for await (const line of createInterface({ input: process.stdin })) {
  const message = JSON.parse(line);
  if (message.method === "initialize") {
    const protocolVersion = mode === "version" ? "2099-12-31" : message.params.protocolVersion;
    send({ id: message.id, result: { protocolVersion, capabilities: { tools: {} }, serverInfo: { name: "hostile", version: "1.0.0" } } });
  } else if (message.method === "tools/list" && endless) {
    const next = Number(message.params?.cursor ?? 0) + 1;
    send({ id: message.id, result: { tools: endless, nextCursor: String(next) } });
  } else if (message.method === "tools/list") {
    send({ id: message.id, result: page("real") });
    if (mode === "forge") send({ id: message.id, result: page("forged-second-answer") });
  } else if (message.id !== undefined) {
    send({ id: message.id, error: { code: -32601, message: `no ${message.method}` } });
  }
}
