// Times tools/call round trips with the official SDK client over stdio: the latency a real
// MCP client sees, including its own JSON parsing and result validation.
//
//   node bench.mjs TOOL ARGS_JSON CALLS SERVER [SERVER_ARGS...]
//
// Makes CALLS calls after two warm-up calls and prints one JSON line: the calls made, the
// result's size in characters, and the minimum, median, 90th and 99th percentile in ms.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const [tool, argsJSON, callsArg, command, ...serverArgs] = process.argv.slice(2);
const args = JSON.parse(argsJSON);
const n = Number(callsArg);

const transport = new StdioClientTransport({ command, args: serverArgs, stderr: "inherit" });
const client = new Client({ name: "cgt-sdkbench", version: "1.0.0" });

async function main() {
  await client.connect(transport);
  let chars = 0;
  for (let i = 0; i < 2; i++) {
    const res = await client.callTool({ name: tool, arguments: args });
    if (res.isError) throw new Error("call failed: " + JSON.stringify(res).slice(0, 500));
    chars = JSON.stringify(res).length;
  }
  const ms = [];
  for (let i = 0; i < n; i++) {
    const start = process.hrtime.bigint();
    await client.callTool({ name: tool, arguments: args });
    ms.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  ms.sort((a, b) => a - b);
  const at = (q) => ms[Math.min(ms.length - 1, Math.floor(q * (ms.length - 1)))];
  console.log(JSON.stringify({ calls: n, chars, minMs: ms[0], p50Ms: at(0.5), p90Ms: at(0.9), p99Ms: at(0.99) }));
  await client.close();
}

main().catch(async (e) => {
  console.error("sdkbench:", e);
  await client.close().catch(() => {});
  process.exit(1);
});
