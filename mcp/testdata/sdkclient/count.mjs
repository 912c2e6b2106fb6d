// Counts the o200k_base tokens of a tools/list answer read on stdin: the whole list, each
// tool, and each property of each tool's input schema (for finding what a tool spends).
// Stdin is the answer itself, or everything `cgt mcp` wrote (one JSON-RPC message a line):
// the line answering tools/list is the one counted (CONTRIBUTING, "Adding a command").
import { encode } from "gpt-tokenizer/encoding/o200k_base";
const input = await new Promise((r) => { let s = ""; process.stdin.on("data", (d) => (s += d)); process.stdin.on("end", () => r(s)); });
const parse = (s) => { try { return JSON.parse(s); } catch { return undefined; } };
const msg = [parse(input), ...input.split("\n").map(parse)].find((m) => (m?.result ?? m)?.tools);
if (!msg) {
  console.error("no tools/list answer on stdin: pipe it the output of cgt mcp given initialize and tools/list");
  process.exit(1);
}
const list = msg.result ?? msg;
const n = (v) => encode(typeof v === "string" ? v : JSON.stringify(v)).length;
console.log("tools/list", n(list));
for (const t of list.tools) {
  const props = Object.entries(t.inputSchema.properties ?? {}).map(([k, v]) => `${k}=${n({ [k]: v })}`).join(" ");
  console.log(t.name, n(t), "desc", n(t.description), "ann", n({ annotations: t.annotations }), "|", props);
}
