// Runs cgt's registry, compiled to WebAssembly (cgt.wasm), off the page's main thread, so the
// page stays responsive while a large ledger is worked out. Messages in: {id, request, names,
// contents}; out: {type: 'ready', commands} once, then {type: 'result', id, envelope, html,
// text} or {type: 'result', id, fault} per request. Nothing here reaches the network except
// the fetches, from this site, of cgt.wasm and of the two tables it is built without (HMRC's
// monthly exchange rates and the bundled ERI figures: the same files the command line embeds).
'use strict';
importScripts('wasm_exec.js');

const ready = new Promise((resolve) => { self.cgtReady = resolve; });

// The bundled tables, fetched beside the module while it compiles; cgt.wasm reads them from
// self.cgtTables when it starts.
async function fetchText(url) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url}: ${response.status} ${response.statusText}`);
  return response.text();
}

async function start() {
  const tables = Promise.all([fetchText('tables/rates.csv'), fetchText('tables/eri.txt')]);
  const go = new Go();
  let module;
  try {
    module = await WebAssembly.instantiateStreaming(fetch('cgt.wasm'), go.importObject);
  } catch (streamErr) {
    // A server that does not send application/wasm: compile from the bytes instead.
    const response = await fetch('cgt.wasm');
    if (!response.ok) throw new Error(`cgt.wasm: ${response.status} ${response.statusText}`);
    module = await WebAssembly.instantiate(await response.arrayBuffer(), go.importObject);
  }
  const [rates, eri] = await tables;
  self.cgtTables = { rates, eri };
  go.run(module.instance).then(() => {
    self.postMessage({ type: 'fatal', message: 'the calculator stopped unexpectedly; reload the page' });
  });
  await ready;
  self.postMessage({ type: 'ready', commands: self.cgtCommands() });
  // While the person chooses their files, a small calculation has the browser compile the
  // code every calculation runs (WebAssembly is compiled a function at a time, as it is first
  // called): the first real result then comes sooner. A request that arrives meanwhile waits
  // for it.
  setTimeout(warmUp, 0);
}

const warmUpLedger = new TextEncoder().encode(
  '2024-04-02 BUY AAA 100 @ 10.00 FEES 1.00\n2024-05-01 BUY BBB 10 @ 150.00 USD\n' +
  '2024-06-03 SELL AAA 40 @ 12.50\n2024-06-20 SELL BBB 4 @ 180.00 USD\n2024-06-25 BUY AAA 10 @ 12.00\n');

function warmUp() {
  const names = ['warm-up.cgt'];
  for (const [args, render] of [[{ path: names, detail: 'disposals' }, ['json']], [{ path: names, detail: 'full' }, ['html']]]) {
    try {
      self.cgtRun(JSON.stringify({ command: 'report.calculate', args, render }), names, [warmUpLedger]);
    } catch {
      return; // a real request reports any fault
    }
  }
}

start().catch((err) => self.postMessage({ type: 'fatal', message: `the calculator could not start: ${err && err.message ? err.message : err}` }));

self.onmessage = (event) => {
  const { id, request, names, contents } = event.data;
  try {
    const r = self.cgtRun(JSON.stringify(request), names, contents);
    self.postMessage({ type: 'result', id, envelope: r.envelope, html: r.html, text: r.text });
  } catch (err) {
    self.postMessage({ type: 'result', id, fault: String(err && err.message ? err.message : err) });
  }
};
