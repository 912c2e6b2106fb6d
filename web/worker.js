// Runs cgt's registry, compiled to WebAssembly (cgt.wasm), off the page's main thread, so the
// page stays responsive while a large ledger is worked out. Messages in: {id, request, names,
// contents}; out: {type: 'ready', commands} once, then {type: 'result', id, envelope, html,
// text} or {type: 'result', id, fault} per request. Nothing here reaches the network except
// the one fetch of cgt.wasm from this site.
'use strict';
importScripts('wasm_exec.js');

const ready = new Promise((resolve) => { self.cgtReady = resolve; });

async function start() {
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
  go.run(module.instance).then(() => {
    self.postMessage({ type: 'fatal', message: 'the calculator stopped unexpectedly; reload the page' });
  });
  await ready;
  self.postMessage({ type: 'ready', commands: self.cgtCommands() });
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
