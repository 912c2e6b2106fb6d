// Drives an MCP server over stdio with the official SDK client: lists tools and resources,
// reads every resource and calls every tool once with the arguments given on the command line.
//
//   node client.mjs CALLS_JSON SERVER [ARGS...]
//
// CALLS_JSON is an array of {name, arguments}. The script prints one JSON summary on stdout and
// exits 1 on any protocol failure (an isError tool result is not a failure; it is reported).
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const [callsJSON, command, ...args] = process.argv.slice(2);
const calls = JSON.parse(callsJSON);

const transport = new StdioClientTransport({ command, args, stderr: "inherit" });
const client = new Client({ name: "cgt-sdkclient", version: "1.0.0" });

async function main() {
  await client.connect(transport);
  const summary = {
    server: client.getServerVersion(),
    instructions: (client.getInstructions() ?? "").length,
    tools: [],
    resources: [],
    calls: [],
  };
  const { tools } = await client.listTools();
  for (const t of tools) {
    summary.tools.push({ name: t.name, annotations: t.annotations, hasOutputSchema: !!t.outputSchema });
  }
  const { resources } = await client.listResources();
  for (const r of resources) {
    const read = await client.readResource({ uri: r.uri });
    summary.resources.push({ uri: r.uri, mimeType: r.mimeType, bytes: read.contents[0].text.length });
  }
  for (const { name, arguments: callArgs } of calls) {
    // callTool validates structuredContent against the tool's outputSchema.
    const res = await client.callTool({ name, arguments: callArgs });
    summary.calls.push({
      name,
      isError: !!res.isError,
      ok: res.structuredContent?.ok ?? null,
      textMatches: JSON.stringify(JSON.parse(res.content[0].text)) === JSON.stringify(res.structuredContent),
      error: res.structuredContent?.error ?? null,
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
