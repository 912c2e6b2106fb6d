// Drives `cgt mcp --http` with the official SDK's Streamable HTTP client: lists the tools, makes
// the calls given (timing each), repeats the first one to measure latency, and checks the
// refusals: no token, a wrong token, a Host that does not name the server, a foreign Origin.
//
//   node http.mjs URL TOKEN CALLS_JSON [REPEAT]
//
// CALLS_JSON is an array of {name, arguments}. The script prints one JSON summary on stdout and
// exits 1 when the connection with the right token fails (a refusal is reported, not a failure).
import http from "node:http";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

const [url, token, callsJSON, repeatArg] = process.argv.slice(2);
const calls = JSON.parse(callsJSON);
const repeat = Number(repeatArg ?? 20);

// connect opens a session with the given request headers and fetch.
async function connect(headers, fetchFn) {
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    requestInit: { headers },
    ...(fetchFn ? { fetch: fetchFn } : {}),
  });
  const client = new Client({ name: "cgt-sdkclient-http", version: "1.0.0" });
  await client.connect(transport);
  return client;
}

// refusal connects and reports the HTTP status of the refusal, or "connected".
async function refusal(headers, fetchFn) {
  try {
    const c = await connect(headers, fetchFn);
    await c.close();
    return "connected";
  } catch (err) {
    return err && typeof err.code === "number" ? err.code : String(err);
  }
}

// fetchWithHost is fetch over node:http with the Host header given (fetch itself always sends
// the URL's host), for the DNS-rebinding case: a page whose name resolves to 127.0.0.1.
function fetchWithHost(host) {
  return (input, init = {}) =>
    new Promise((resolve, reject) => {
      const u = new URL(input);
      const headers = Object.fromEntries(new Headers(init.headers).entries());
      headers.host = host;
      const req = http.request(u, { method: init.method ?? "GET", headers }, (res) => {
        const chunks = [];
        res.on("data", (c) => chunks.push(c));
        res.on("end", () => {
          const h = new Headers();
          for (const [k, v] of Object.entries(res.headers)) h.set(k, Array.isArray(v) ? v.join(", ") : v);
          resolve(new Response(res.statusCode === 204 ? null : Buffer.concat(chunks), { status: res.statusCode, headers: h }));
        });
      });
      req.on("error", reject);
      if (init.body) req.write(init.body);
      req.end();
    });
}

function envelopeOf(res) {
  if (res.structuredContent) return res.structuredContent;
  try {
    const v = JSON.parse(res.content[0].text);
    return v && typeof v === "object" && "ok" in v ? v : null;
  } catch {
    return null;
  }
}

async function main() {
  const auth = { Authorization: `Bearer ${token}` };
  const port = new URL(url).port;
  const summary = { url, server: null, tools: [], calls: [], latencyMs: null, refusals: {} };

  const t0 = performance.now();
  const client = await connect({ ...auth, Origin: `http://localhost:${port}` });
  summary.connectMs = +(performance.now() - t0).toFixed(2);
  summary.server = client.getServerVersion();
  const list = await client.listTools();
  summary.tools = list.tools.map((t) => t.name);
  for (const { name, arguments: args } of calls) {
    const t = performance.now();
    const res = await client.callTool({ name, arguments: args });
    const ms = performance.now() - t;
    const env = envelopeOf(res);
    const text = res.content.map((c) => c.text ?? "").join("");
    summary.calls.push({
      name,
      ms: +ms.toFixed(2),
      isError: !!res.isError,
      // compact text names the error code on its first lines; json has it in the envelope
      code: env?.error?.code ?? (text.match(/\b(permission_denied|not_found|invalid_argument)\b/) || [null])[0],
      text: text.slice(0, 400),
      chars: text.length,
    });
  }
  if (calls.length > 0 && repeat > 0) {
    const times = [];
    for (let i = 0; i < repeat; i++) {
      const t = performance.now();
      await client.callTool(calls[0]);
      times.push(performance.now() - t);
    }
    times.sort((a, b) => a - b);
    const q = (p) => +times[Math.min(times.length - 1, Math.floor(p * times.length))].toFixed(2);
    summary.latencyMs = { tool: calls[0].name, n: times.length, min: q(0), median: q(0.5), p95: q(0.95), max: q(1) };
  }
  await client.close();

  summary.refusals.noToken = await refusal({});
  summary.refusals.wrongToken = await refusal({ Authorization: "Bearer not-the-token-at-all-0123456789" });
  summary.refusals.badHost = await refusal(auth, fetchWithHost(`rebind.example:${port}`));
  summary.refusals.badOrigin = await refusal({ ...auth, Origin: "http://evil.example" });
  summary.refusals.goodHost = await refusal(auth, fetchWithHost(`localhost:${port}`));
  console.log(JSON.stringify(summary));
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
