// The probe MCP server of apcheck's `--connect` tests: it answers the
// handshake, lists its tools in two pages, and reports what it received
// (argv, cwd, environment, request path, query and headers) inside the
// first page's tool, under `x-apcheck-probe`, so the snapshot apcheck prints
// shows every case. Built on the official MCP SDK that
// @modelcontextprotocol/server-everything already depends on.
//
//   node probe.mjs NAME [ARG…]                an MCP server on stdin/stdout
//   node probe.mjs http LOG_FILE              HTTP on 127.0.0.1, a free port, printed as `port N`
//
// HTTP routes (on any host name, so `localhost` is a second origin of the same port):
//   /conformance/mcp                 streamable HTTP
//   /conformance/redirect            307 to the streamable HTTP route on the other origin
//   /conformance/sse…                legacy HTTP+SSE (2024-11-05); messages at /conformance/messages
//   /conformance/sse-redirect        307 to the SSE route on the other origin
//   /conformance/sse-endpoint-origin an SSE stream whose endpoint event names the other origin
// Every request is appended to LOG_FILE as one JSON line {method, host, path, headers}.

import { appendFileSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { join } from "node:path";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { SSEServerTransport } from "@modelcontextprotocol/sdk/server/sse.js";
import { ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";

const SECOND_PAGE = "page-2";

/// A server whose tools/list reports `observed()` and comes in two pages.
function probeServer(observed) {
  const server = new Server({ name: "apcheck-probe", version: "1.0.0" }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, async (request, extra) => {
    if (request.params?.cursor === SECOND_PAGE) {
      return { tools: [{ name: "second-page", description: "Only on page 2", inputSchema: { type: "object" } }] };
    }
    return {
      tools: [
        {
          name: "observe",
          description: "Reports what the probe received",
          inputSchema: { type: "object", properties: {} },
          execution: { taskSupport: "forbidden" },
          "x-apcheck-probe": observed(extra),
        },
      ],
      nextCursor: SECOND_PAGE,
    };
  });
  return server;
}

/// What a stdio server can see of how it was launched.
function launchObservation(name) {
  const data = process.env.PLUGIN_DATA;
  let dataWritable = false;
  let dataError;
  try {
    const probeDir = mkdtempSync(join(data, `probe-${name}-`));
    writeFileSync(join(probeDir, "written"), "ok");
    rmSync(probeDir, { recursive: true });
    dataWritable = true;
  } catch (error) {
    dataError = String(error);
  }
  return {
    name,
    argv: process.argv.slice(2),
    cwd: process.cwd(),
    env: Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith("npm_"))),
    dataWritable,
    dataError,
  };
}

async function stdio(name) {
  const observation = launchObservation(name);
  await probeServer(() => observation).connect(new StdioServerTransport());
}

function log(file, req) {
  appendFileSync(file, JSON.stringify({ method: req.method, host: req.headers.host, path: req.url, headers: req.headers }) + "\n");
}

function http(logFile) {
  const sse = new Map();
  const httpServer = createServer(async (req, res) => {
    log(logFile, req);
    const url = new URL(req.url, "http://placeholder");
    const port = httpServer.address().port;
    const otherOrigin = req.headers.host?.startsWith("localhost") ? `http://127.0.0.1:${port}` : `http://localhost:${port}`;
    const request = { path: url.pathname, query: url.search, headers: req.headers };
    if (url.pathname === "/conformance/mcp") {
      // Stateless: one server and transport per request, each seeing its own request.
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
      await probeServer(() => ({ transport: "streamable-http", request })).connect(transport);
      await transport.handleRequest(req, res);
    } else if (url.pathname === "/conformance/redirect") {
      res.writeHead(307, { location: `${otherOrigin}/conformance/mcp` }).end();
    } else if (url.pathname === "/conformance/sse-redirect") {
      res.writeHead(307, { location: `${otherOrigin}/conformance/sse` }).end();
    } else if (url.pathname === "/conformance/sse-endpoint-origin") {
      res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
      res.write(`event: endpoint\ndata: ${otherOrigin}/conformance/messages?sessionId=elsewhere\n\n`);
    } else if (url.pathname.startsWith("/conformance/sse")) {
      const transport = new SSEServerTransport("/conformance/messages", res);
      const posts = [];
      sse.set(transport.sessionId, { transport, posts });
      await probeServer(() => ({ transport: "sse", stream: request, posts })).connect(transport);
    } else if (url.pathname === "/conformance/messages") {
      const session = sse.get(url.searchParams.get("sessionId"));
      if (!session) {
        res.writeHead(404).end("no such session");
        return;
      }
      session.posts.push({ path: url.pathname, query: url.search, headers: req.headers });
      await session.transport.handlePostMessage(req, res);
    } else {
      res.writeHead(404).end("not a probe route");
    }
  });
  httpServer.listen(0, "127.0.0.1", () => {
    process.stdout.write(`port ${httpServer.address().port}\n`);
  });
  // The test closes stdin to stop the server.
  process.stdin.on("end", () => process.exit(0));
  process.stdin.resume();
}

const [mode, ...rest] = process.argv.slice(2);
if (mode === "http") {
  http(rest[0]);
} else {
  await stdio(mode ?? "probe");
}
