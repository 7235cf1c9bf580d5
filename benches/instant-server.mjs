// A stdio MCP server for `benches/connect.rs` that answers at once: canned
// replies, no SDK to load, so the benchmark times apcheck and not node's
// module loading. One JSON-RPC message per line (MCP stdio transport).
import { createInterface } from "node:readline";

const reply = (id, body) => process.stdout.write(JSON.stringify({ jsonrpc: "2.0", id, ...body }) + "\n");
const tool = (name) => ({ name, inputSchema: { type: "object" } });

createInterface({ input: process.stdin }).on("line", (line) => {
  const { id, method, params } = JSON.parse(line);
  if (id === undefined) return; // notifications/initialized
  if (method === "initialize") {
    reply(id, { result: { protocolVersion: "2025-11-25", capabilities: { tools: {} }, serverInfo: { name: "instant", version: "1.0.0" } } });
  } else if (method === "tools/list") {
    reply(id, { result: params?.cursor ? { tools: [tool("second")] } : { tools: [tool("first")], nextCursor: "2" } });
  } else {
    reply(id, { error: { code: -32601, message: `Method not found: ${method}` } });
  }
});
