// Splits the tools/call round trip the official SDK client sees into its parts: until the
// first byte of the answer arrives (the request written, the server's work), the transfer of
// the rest, the client's own parsing and validation, and what follows until callTool returns.
//
//   node timeline.mjs TOOL ARGS_JSON CALLS SERVER [SERVER_ARGS...]
//
// Prints the median of each part, in ms, over CALLS calls after three warm-up calls.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ReadBuffer } from "@modelcontextprotocol/sdk/shared/stdio.js";

const [tool, argsJSON, callsArg, command, ...serverArgs] = process.argv.slice(2);
const args = JSON.parse(argsJSON);
const n = Number(callsArg);

let first = 0n, last = 0n, parsed = 0n, chunks = 0;
const append = ReadBuffer.prototype.append;
ReadBuffer.prototype.append = function (chunk) {
  const now = process.hrtime.bigint();
  if (chunks++ === 0) first = now;
  last = now;
  return append.call(this, chunk);
};
const readMessage = ReadBuffer.prototype.readMessage;
ReadBuffer.prototype.readMessage = function () {
  const m = readMessage.call(this);
  if (m) parsed = process.hrtime.bigint();
  return m;
};

const transport = new StdioClientTransport({ command, args: serverArgs, stderr: "inherit" });
const client = new Client({ name: "cgt-timeline", version: "1.0.0" });
await client.connect(transport);
for (let i = 0; i < 3; i++) await client.callTool({ name: tool, arguments: args });
const rows = [];
for (let i = 0; i < n; i++) {
  chunks = 0;
  const start = process.hrtime.bigint();
  await client.callTool({ name: tool, arguments: args });
  const end = process.hrtime.bigint();
  rows.push([first - start, last - first, parsed - last, end - parsed, end - start].map(Number));
}
const median = (k) => {
  const v = rows.map((r) => r[k]).sort((a, b) => a - b);
  return +(v[v.length >> 1] / 1e6).toFixed(2);
};
console.log(JSON.stringify({ calls: n, firstByteMs: median(0), transferMs: median(1), parseMs: median(2), afterMs: median(3), totalMs: median(4) }));
await client.close();
