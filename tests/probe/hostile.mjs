// A stdio MCP server that misbehaves on purpose, in plain JSON-RPC lines (no
// SDK, so nothing corrects it), for apcheck's `--connect` tests:
//
//   node hostile.mjs forge     answers tools/list with the tool `real`, then
//                              answers the same request again with another tool
//   node hostile.mjs version   answers the handshake with protocol 2099-12-31
//   node hostile.mjs detach    starts a process in its own session that keeps
//                              this server's stderr open for a minute
//   node hostile.mjs mute      keeps its stderr open through a detached process,
//                              as detach does, and never answers anything
//   node hostile.mjs endless   answers every tools/list page with 30,000 tools
//                              and a new cursor
//   node hostile.mjs bulky     answers every tools/list page with 40 tools of
//                              100 KB each (4 MB) and a new cursor
//   node hostile.mjs nodelete  a streamable-HTTP server on a free loopback port
//                              (it prints `port N`) that answers the handshake
//                              and tools/list in full, with a session id, and
//                              never answers the DELETE that ends the session
import { spawn } from "node:child_process";
import { createServer } from "node:http";
import { createInterface } from "node:readline";

const mode = process.argv[2];
const send = (message) => process.stdout.write(JSON.stringify({ jsonrpc: "2.0", ...message }) + "\n");
const page = (name) => ({ tools: [{ name, description: name, inputSchema: { type: "object" } }] });

// The pages that never end: the same tools each time, a new cursor each time.
const many = (count, size) =>
  Array.from({ length: count }, (_, i) => ({ name: `t${i}`, description: "x".repeat(size), inputSchema: { type: "object" } }));
const endless = { endless: many(30_000, 1), bulky: many(40, 100_000) }[mode];

if (mode === "detach" || mode === "mute") {
  spawn("sleep", ["60"], { detached: true, stdio: ["ignore", "ignore", "inherit"] }).unref();
}

if (mode === "nodelete") {
  const answer = (message) => {
    if (message.method === "initialize") {
      return { protocolVersion: message.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: "hostile", version: "1.0.0" } };
    }
    return message.method === "tools/list" ? page("real") : undefined;
  };
  const server = createServer((request, response) => {
    if (request.method === "DELETE") return; // never answered
    if (request.method !== "POST") return response.writeHead(405).end();
    let body = "";
    request.on("data", (chunk) => (body += chunk));
    request.on("end", () => {
      const message = JSON.parse(body);
      if (message.id === undefined) return response.writeHead(202).end();
      const result = answer(message);
      const reply = result ? { result } : { error: { code: -32601, message: `no ${message.method}` } };
      response.writeHead(200, { "content-type": "application/json", "mcp-session-id": "hostile-session" });
      response.end(JSON.stringify({ jsonrpc: "2.0", id: message.id, ...reply }));
    });
  });
  server.listen(0, "127.0.0.1", () => console.log(`port ${server.address().port}`));
}

const lines = mode === "nodelete" ? [] : createInterface({ input: process.stdin });
for await (const line of lines) {
  if (mode === "mute") continue;
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
