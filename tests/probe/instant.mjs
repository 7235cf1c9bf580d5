// A stdio MCP server that answers at once, with canned replies and no SDK to
// load: `benches/connect.rs` times apcheck with it rather than node's module
// loading, and `tests/live.rs` runs it as a 2026-07-28 server, which the SDK
// of server-everything does not speak yet. One JSON-RPC message per line.
//
//   node instant.mjs            legacy: refuses server/discover, answers initialize (2025-11-25)
//   node instant.mjs modern     MCP 2026-07-28: answers server/discover, has no initialize
import { createInterface } from "node:readline";

const modern = process.argv[2] === "modern";
const serverInfo = { name: "instant", version: "1.0.0" };
const reply = (id, body) => process.stdout.write(JSON.stringify({ jsonrpc: "2.0", id, ...body }) + "\n");
const unknown = (id, method) => reply(id, { error: { code: -32601, message: `Method not found: ${method}` } });
const tool = (name) => ({ name, inputSchema: { type: "object" }, icons: [{ src: "https://example.com/i.png" }] });
// 2026-07-28 results say they are complete and how long they may be cached.
const complete = (result) => (modern ? { resultType: "complete", ttlMs: 0, cacheScope: "private", ...result } : result);

createInterface({ input: process.stdin }).on("line", (line) => {
  const { id, method, params } = JSON.parse(line);
  if (id === undefined) return; // notifications
  if (method === "server/discover" && modern) {
    reply(id, {
      result: complete({
        supportedVersions: ["2026-07-28"],
        capabilities: { tools: {} },
        _meta: { "io.modelcontextprotocol/serverInfo": serverInfo },
      }),
    });
  } else if (method === "initialize" && !modern) {
    reply(id, { result: { protocolVersion: "2025-11-25", capabilities: { tools: {} }, serverInfo } });
  } else if (method === "tools/list") {
    const page = params?.cursor ? { tools: [tool("second")] } : { tools: [tool("first")], nextCursor: "2" };
    reply(id, { result: complete(page) });
  } else {
    unknown(id, method);
  }
});
