// Drives an MCP server over stdio with the official SDK client: lists tools and resources,
// reads every resource and calls every tool once with the arguments given on the command line.
//
//   node client.mjs CALLS_JSON SERVER [ARGS...]
//
// CALLS_JSON is an array of {name, arguments}. The script prints one JSON summary on stdout and
// exits 1 on any protocol failure (an isError tool result is not a failure; it is reported).
// When gpt-tokenizer is installed, the summary counts tokens (o200k_base) of what a client
// hands a model: the tools/list result, and each tool result.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const [callsJSON, command, ...args] = process.argv.slice(2);
const calls = JSON.parse(callsJSON);
// MAX_RESOURCE_BYTES is mcp.MaxResourceBytes: the largest file resources/read returns.
const MAX_RESOURCE_BYTES = 1000000;

let countTokens = null;
try {
  const { encode } = await import("gpt-tokenizer/encoding/o200k_base");
  countTokens = (v) => encode(typeof v === "string" ? v : JSON.stringify(v)).length;
} catch {
  // Not installed: the summary has no token counts.
}

const transport = new StdioClientTransport({ command, args, stderr: "inherit" });
const client = new Client({ name: "cgt-sdkclient", version: "1.0.0" });

// envelopeOf reads the envelope from a result: structuredContent, or text that is JSON.
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
  await client.connect(transport);
  const summary = {
    server: client.getServerVersion(),
    instructions: (client.getInstructions() ?? "").length,
    tokenizer: countTokens ? "o200k_base" : null,
    tools: [],
    resources: [],
    calls: [],
  };
  const list = await client.listTools();
  summary.toolsListTokens = countTokens ? countTokens(list) : null;
  summary.toolsListChars = JSON.stringify(list).length;
  // CGT_EXTRA_TOOLS: tool definitions not served yet, counted as if tools/list had them too.
  const extra = JSON.parse(process.env.CGT_EXTRA_TOOLS || "[]");
  if (countTokens) {
    summary.toolTokens = Object.fromEntries(list.tools.concat(extra).map((t) => [t.name, countTokens(t)]));
    summary.toolsListWithExtraTokens = countTokens({ ...list, tools: list.tools.concat(extra) });
  }
  for (const t of list.tools) {
    summary.tools.push({ name: t.name, annotations: t.annotations, hasOutputSchema: !!t.outputSchema });
  }
  const { resources } = await client.listResources();
  for (const r of resources) {
    // A file over what resources/read returns is listed with its size (tools take it by
    // path); reading it is refused, as a client that reads the size would not ask.
    if (r.size > MAX_RESOURCE_BYTES) continue;
    const read = await client.readResource({ uri: r.uri });
    summary.resources.push({ uri: r.uri, mimeType: r.mimeType, bytes: (read.contents[0].text ?? read.contents[0].blob ?? "").length });
  }
  for (const { name, arguments: callArgs } of calls) {
    // callTool validates structuredContent against the tool's outputSchema, when there is one.
    const res = await client.callTool({ name, arguments: callArgs });
    const env = envelopeOf(res);
    const text = res.content.map((c) => c.text ?? "").join("");
    summary.calls.push({
      name,
      isError: !!res.isError,
      ok: env ? env.ok : null,
      error: env ? env.error : null,
      contentItems: res.content.length,
      hasStructured: res.structuredContent !== undefined,
      // The same JSON twice: the text repeats the structured content.
      doubled: res.structuredContent !== undefined && text.includes(JSON.stringify(res.structuredContent).slice(0, 200)),
      text: text.length > 4000 ? text.slice(0, 4000) : text,
      chars: JSON.stringify(res).length,
      tokens: countTokens ? countTokens(res) : null,
    });
  }
  try {
    await client.callTool({ name: "no_such_tool", arguments: {} });
    summary.unknownTool = "no error";
  } catch (e) {
    summary.unknownTool = e.code ?? String(e);
  }
  console.log(JSON.stringify(summary));
  await client.close();
}

main().catch(async (e) => {
  console.error("sdkclient:", e);
  await client.close().catch(() => {});
  process.exit(1);
});
