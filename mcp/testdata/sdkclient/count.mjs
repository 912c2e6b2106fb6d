// Counts the o200k_base tokens of a tools/list answer read on stdin: the whole list, each
// tool, and each property of each tool's input schema (for finding what a tool spends).
import { encode } from "gpt-tokenizer/encoding/o200k_base";
const msg = JSON.parse(await new Promise((r) => { let s = ""; process.stdin.on("data", (d) => (s += d)); process.stdin.on("end", () => r(s)); }));
const list = msg.result ?? msg;
const n = (v) => encode(typeof v === "string" ? v : JSON.stringify(v)).length;
console.log("tools/list", n(list));
for (const t of list.tools) {
  const props = Object.entries(t.inputSchema.properties ?? {}).map(([k, v]) => `${k}=${n({ [k]: v })}`).join(" ");
  console.log(t.name, n(t), "desc", n(t.description), "ann", n({ annotations: t.annotations }), "|", props);
}
