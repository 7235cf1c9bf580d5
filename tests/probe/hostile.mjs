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
//   node hostile.mjs auth      prints `auth failed for token $API_TOKEN` to
//                              stderr and exits, as a server refusing a key does
//   node hostile.mjs echo      connects, and echoes $API_TOKEN in its
//                              serverInfo, a tool's name and its description
//   node hostile.mjs http PORT streamable HTTP on 127.0.0.1:PORT that echoes
//                              the X-Api-Key header: `/401` in a 401 body,
//                              `/rpc` in the JSON-RPC error answering tools/list;
//                              `/close…` drops the connection unanswered
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

if (mode === "auth") {
  process.stderr.write(`starting\nauth failed for token ${process.env.API_TOKEN}\n`);
  process.exit(1);
}

if (mode === "http") {
  createServer((request, response) => {
    const key = request.headers["x-api-key"];
    let body = "";
    request.on("data", (chunk) => (body += chunk));
    request.on("end", () => {
      if (request.url.startsWith("/close")) {
        request.socket.destroy();
        return;
      }
      if (request.url === "/401") {
        response.writeHead(401, { "content-type": "text/plain" });
        response.end(`invalid X-Api-Key ${key}`);
        return;
      }
      const { id, method, params } = JSON.parse(body);
      if (id === undefined) {
        response.writeHead(202).end();
        return;
      }
      const answer =
        method === "initialize"
          ? { result: { protocolVersion: params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: "hostile", version: "1.0.0" } } }
          : method === "tools/list"
            ? { error: { code: -32001, message: `unknown key ${key}` } }
            : { error: { code: -32601, message: `no ${method}` } };
      response.writeHead(200, { "content-type": "application/json" });
      response.end(JSON.stringify({ jsonrpc: "2.0", id, ...answer }));
    });
  }).listen(Number(process.argv[3]), "127.0.0.1");
}

const token = process.env.API_TOKEN;
const lines = mode === "nodelete" || mode === "http" ? [] : createInterface({ input: process.stdin });
for await (const line of lines) {
  if (mode === "mute") continue;
  const message = JSON.parse(line);
  if (message.method === "initialize") {
    const protocolVersion = mode === "version" ? "2099-12-31" : message.params.protocolVersion;
    const serverInfo = { name: "hostile", version: mode === "echo" ? `1.0.0 for ${token}` : "1.0.0" };
    send({ id: message.id, result: { protocolVersion, capabilities: { tools: {} }, serverInfo } });
  } else if (message.method === "tools/list" && endless) {
    const next = Number(message.params?.cursor ?? 0) + 1;
    send({ id: message.id, result: { tools: endless, nextCursor: String(next) } });
  } else if (message.method === "tools/list") {
    send({ id: message.id, result: page(mode === "echo" ? `tool-${token}` : "real") });
    if (mode === "forge") send({ id: message.id, result: page("forged-second-answer") });
  } else if (message.id !== undefined) {
    send({ id: message.id, error: { code: -32601, message: `no ${message.method}` } });
  }
}
