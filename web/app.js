// cgt in the browser: the page's side. Every figure comes from cgt's registry, compiled to
// WebAssembly and run in worker.js: the page names a command and its arguments (as a script
// would with the CLI) and shows the envelope it gets back. It holds no tax rules of its own.
//
// Hooks for tests and scripts (docs: docs-site, "In your browser"): #files, #income,
// #losses, #year, [data-box="N"] (the figure to enter in box N), [data-figure="tax_due"] and
// [data-figure="taxable_gain"] (with data-value), #warnings li, #report, #download-report,
// #download-ledger, body[data-state] = loading | ready | working | done | error.
'use strict';

(() => {
  const $ = (sel) => document.querySelector(sel);
  const body = document.body;
  const status = $('#status');

  let worker = null;
  let commands = [];
  let nextID = 1;
  const pending = new Map();
  let files = []; // {name, bytes: Uint8Array, size}
  let ledgerCache = null; // {files, text}
  let runSeq = 0;
  let lastRun = null; // {files, key}: what the latest calculation was asked, to run it once
  const urls = { report: null, ledger: null };

  function setState(state, message) {
    body.dataset.state = state;
    if (message !== undefined) status.textContent = message;
  }

  // --- the calculator, in a worker ---------------------------------------------------------

  function startWorker() {
    try {
      worker = new Worker('worker.js');
    } catch (err) {
      fatal(`the calculator could not be loaded (${err.message}). Open the page from a web server, not as a file.`);
      return;
    }
    worker.onmessage = (event) => {
      const m = event.data;
      if (m.type === 'ready') {
        commands = m.commands || [];
        $('#calculate').disabled = false;
        $('#plan').hidden = !commands.includes('plan.sale');
        setState('ready', 'Ready: choose your files.');
        if (files.length) calculate();
      } else if (m.type === 'result') {
        const p = pending.get(m.id);
        pending.delete(m.id);
        if (p) p(m);
      } else if (m.type === 'fatal') {
        fatal(m.message);
      }
    };
    worker.onerror = (event) => {
      event.preventDefault();
      fatal(`the calculator could not be loaded: ${event.message || 'the browser refused it'}`);
    };
  }

  function fatal(message) {
    for (const [id, p] of pending) {
      pending.delete(id);
      p({ fault: message });
    }
    showError({ message: `${message[0].toUpperCase()}${message.slice(1)}.`, hint: 'Reload the page to try again.' }, []);
  }

  // today is the browser's local date, for the commands whose dates default to today.
  function today() {
    const d = new Date();
    const pad = (n) => String(n).padStart(2, '0');
    return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
  }

  // run executes a registry command on the files (all of them, or those given) and resolves
  // to {env, html, text}: env is the envelope the CLI's --output json prints (its data only
  // when render has 'json'); html and text are the renderings render asks for.
  function run(command, args, render = [], only = files) {
    return new Promise((resolve, reject) => {
      if (!worker || body.dataset.state === 'loading') {
        reject(new Error('the calculator is still loading'));
        return;
      }
      const id = nextID++;
      pending.set(id, (m) => {
        if (m.fault) reject(new Error(m.fault));
        else resolve({ env: JSON.parse(m.envelope), html: m.html, text: m.text });
      });
      worker.postMessage({
        id,
        request: { command, args, today: today(), render },
        names: only.map((f) => f.name),
        contents: only.map((f) => f.bytes),
      });
    });
  }

  // --- files ---------------------------------------------------------------------------------

  async function takeFiles(list) {
    const chosen = Array.from(list || []);
    if (!chosen.length) return;
    const seen = new Map();
    const read = [];
    for (const f of chosen) {
      // Two files of one name (two folders' exports) each keep their own, numbered.
      let name = f.name || 'file';
      const n = (seen.get(name) || 0) + 1;
      seen.set(name, n);
      if (n > 1) name = name.replace(/(\.[^.]*)?$/, (ext) => ` (${n})${ext || ''}`);
      read.push(f.arrayBuffer().then((buf) => ({ name, bytes: new Uint8Array(buf), size: f.size })));
    }
    try {
      files = await Promise.all(read);
    } catch (err) {
      showError({ message: `A file could not be read: ${err.message}.`, hint: 'Choose it again.' }, []);
      return;
    }
    ledgerCache = null;
    listFiles();
    calculate();
  }

  function listFiles() {
    const ul = $('#file-list');
    ul.replaceChildren(...files.map((f) => el('li', {}, `${f.name} (${size(f.size)})`)));
  }

  function size(n) {
    if (n < 1024) return `${n} bytes`;
    if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} kB`;
    return `${(n / 1024 / 1024).toFixed(1)} MB`;
  }

  // --- the calculation ------------------------------------------------------------------------

  function reportArgs() {
    const args = { path: files.map((f) => f.name), detail: 'full' };
    const income = $('#income').value.trim().replace(/[£,\s]/g, '');
    if (income) args.taxable_income = income;
    const losses = $('#losses').value.trim().replace(/[£,\s]/g, '');
    if (losses) args.losses_brought_forward = losses;
    const year = $('#year').value.trim();
    if (year) args.year = year;
    return args;
  }

  async function calculate(force = false) {
    if (!files.length || body.dataset.state === 'loading') return;
    const args = reportArgs();
    const key = JSON.stringify(args);
    // Enter in a field and the change event that follows it ask for the same calculation.
    if (!force && lastRun && lastRun.files === files && lastRun.key === key && body.dataset.state !== 'error') return;
    lastRun = { files, key };
    const seq = ++runSeq;
    setState('working', `Working it out from ${files.length} file${files.length === 1 ? '' : 's'}…`);
    try {
      // The figures (each year's totals and disposals, as JSON) and the full report as a page
      // are two runs, asked for together: two runs cost less than one full report written
      // both ways, and the figures are shown while the worker writes the page.
      const figuresRun = run('report.calculate', { ...args, detail: 'disposals' }, ['json']);
      const pageRun = run('report.calculate', args, ['html']);
      pageRun.catch(() => {}); // a failure is reported once, below
      const figures = await figuresRun;
      if (seq !== runSeq) return;
      if (!figures.env.ok) {
        showError(figures.env.error, figures.env.warnings);
        return;
      }
      showFigures(figures.env);
      status.textContent = 'Writing the full report…';
      const page = await pageRun;
      if (seq !== runSeq) return;
      if (!page.env.ok) {
        showError(page.env.error, page.env.warnings);
        return;
      }
      const ledger = await importedLedger();
      if (seq !== runSeq) return;
      showReport(page.html, ledger, figures.env);
    } catch (err) {
      if (seq === runSeq) showError({ message: `The calculation failed: ${err.message}.`, hint: 'Reload the page and try again; if it fails again, please report it.' }, []);
    }
  }

  // importedLedger is the ledger the report was worked out from, as one .cgt file: the broker
  // exports converted by transactions.import (its text output: editable ledger lines, with
  // every skipped row accounted for in comments), then the ledgers as given.
  async function importedLedger() {
    if (ledgerCache && ledgerCache.files === files) return ledgerCache.text;
    const exported = [];
    const ledgers = [];
    for (const f of files) {
      const r = await run('transactions.import', { path: [f.name] }, [], [f]);
      (r.env.ok ? exported : ledgers).push(f);
    }
    const parts = [`# Ledger of ${files.map((f) => f.name).join(', ')}, put together by cgt in the browser.\n`];
    if (exported.length) {
      const r = await run('transactions.import', { path: exported.map((f) => f.name) }, ['text'], exported);
      if (r.env.ok) parts.push(r.text);
    }
    const decoder = new TextDecoder();
    for (const f of ledgers) {
      let text = decoder.decode(f.bytes);
      if (!text.endsWith('\n')) text += '\n';
      parts.push(`\n# ${f.name.replace(/[\r\n]/g, ' ')}, as given\n${text}`);
    }
    const text = parts.join('');
    ledgerCache = { files, text };
    return text;
  }

  // --- showing the result --------------------------------------------------------------------

  function el(tag, attrs = {}, ...children) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs)) {
      if (v === undefined || v === null || v === false) continue;
      e.setAttribute(k, v === true ? '' : v);
    }
    for (const c of children) if (c !== undefined && c !== null) e.append(c);
    return e;
  }

  function pounds(s) {
    if (s === undefined || s === null || s === '') return '';
    const neg = s.startsWith('-');
    const [whole, pence] = (neg ? s.slice(1) : s).split('.');
    const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
    return `${neg ? '−' : ''}£${grouped}${pence !== undefined ? `.${pence}` : ''}`;
  }

  function blobURL(kind, text, type) {
    if (urls[kind]) URL.revokeObjectURL(urls[kind]);
    urls[kind] = URL.createObjectURL(new Blob([text], { type }));
    return urls[kind];
  }

  function showWarnings(warnings) {
    const ul = $('#warnings');
    ul.replaceChildren(...(warnings || []).map((w) => el('li', {}, w)));
    $('#warnings-box').hidden = !(warnings && warnings.length);
  }

  function showError(error, warnings) {
    const box = $('#error');
    const parts = [el('strong', {}, 'This needs fixing: '), error.message || 'something went wrong.'];
    const ctx = error.context || {};
    const where = [ctx.file, ctx.line && `line ${ctx.line}`, ctx.column && `column ${ctx.column}`].filter(Boolean).join(', ');
    if (where) parts.push(el('br'), `Where: ${where}.`);
    if (error.hint) parts.push(el('br'), error.hint);
    if (error.examples && error.examples.length) parts.push(el('pre', {}, `For example:\n${error.examples.join('\n')}`));
    box.replaceChildren(...parts);
    box.hidden = false;
    showWarnings(warnings);
    $('#years-out').replaceChildren();
    $('#downloads').hidden = true;
    $('#report-box').hidden = true;
    $('#results').hidden = false;
    setState('error', `Not worked out: ${error.message || 'an error'}`);
  }

  // yearsShown are the years the page lists: every year when one was asked for, otherwise
  // those with disposals (all, when none has), the latest first: the one being filed.
  function yearsShown(data) {
    const all = data.tax_years || [];
    let years = all;
    if (!$('#year').value.trim()) {
      const active = all.filter((y) => y.disposal_count > 0);
      if (active.length) years = active;
    }
    return [...years].reverse();
  }

  function showFigures(env) {
    const data = env.data;
    $('#error').hidden = true;
    showWarnings(env.warnings);
    if (!$('#year').value.trim()) {
      $('#years').replaceChildren(...(data.tax_years || []).map((y) => el('option', { value: y.period })));
    }
    $('#years-out').replaceChildren(...yearsShown(data).map(yearSection));
    $('#results').hidden = false;
  }

  function showReport(html, ledger, env) {
    $('#download-report').href = blobURL('report', html, 'text/html;charset=utf-8');
    $('#download-ledger').href = blobURL('ledger', ledger, 'text/plain;charset=utf-8');
    $('#downloads').hidden = false;

    const frame = $('#report');
    frame.onload = () => {
      const doc = frame.contentDocument;
      if (doc && doc.documentElement) frame.style.height = `${doc.documentElement.scrollHeight + 20}px`;
    };
    frame.srcdoc = html;
    $('#report-box').hidden = false;

    const years = yearsShown(env.data);
    const latest = years[0];
    let summary = `Done: ${years.length} tax year${years.length === 1 ? '' : 's'} shown`;
    if (latest) {
      summary += `; ${latest.period}: taxable gain ${pounds(latest.taxable_gain)}`;
      summary += latest.tax ? `, tax due ${pounds(latest.tax.total)}` : ' (enter your taxable income for the tax due)';
    }
    const nw = (env.warnings || []).length;
    if (nw) summary += `; ${nw} thing${nw === 1 ? '' : 's'} to check first`;
    setState('done', `${summary}.`);
  }

  const MAX_ROWS = 500;

  function yearSection(ty) {
    const sec = el('section', { class: 'year', 'data-period': ty.period, 'aria-label': `Tax year ${ty.period}` });
    sec.append(el('h3', {}, `Tax year ${ty.period}`), el('p', { class: 'note' }, `${ty.start_date} to ${ty.end_date}`));

    const sa = ty.sa108 || {};
    const boxes = el('table', { class: 'boxes' }, el('caption', { class: 'note' }, 'SA108 Capital gains summary: the figures to enter'));
    for (const b of sa.boxes || []) {
      boxes.append(el('tr', {}, el('td', { class: 'box' }, `box ${b.box}`), el('th', { scope: 'row' }, b.label), el('td', { class: 'n', 'data-box': b.box }, b.value)));
    }
    sec.append(el('div', { class: 'scroll' }, boxes));
    if (sa.boxes_note) sec.append(el('p', { class: 'note' }, sa.boxes_note));

    const fig = el('table', { class: 'figures' });
    const row = (label, value, attrs = {}) => fig.append(el('tr', attrs.rowClass ? { class: attrs.rowClass } : {}, el('th', { scope: 'row' }, label), el('td', { class: 'n', 'data-figure': attrs.figure, 'data-value': attrs.figure ? value : undefined }, pounds(value))));
    row('Gains', ty.gains);
    row('Losses', ty.losses);
    row('Net gain', ty.net_gain);
    row('Annual exempt amount', ty.annual_exempt_amount);
    row('Losses brought forward', ty.losses_brought_forward);
    row('Losses used', ty.losses_used);
    row('Losses carried forward', ty.losses_carried_forward);
    row('Taxable gain', ty.taxable_gain, { figure: 'taxable_gain' });
    if (ty.tax) {
      row('Tax due', ty.tax.total, { figure: 'tax_due', rowClass: 'tax' });
    } else {
      fig.append(el('tr', {}, el('th', { scope: 'row' }, 'Tax due'), el('td', {}, 'Enter your taxable income above to work it out.')));
    }
    sec.append(el('div', { class: 'scroll' }, fig));

    const ds = ty.disposals || [];
    if (ds.length) {
      sec.append(el('h4', {}, `Disposals (${ds.length})`));
      const t = el('table', { class: 'disposals' }, el('tr', {}, ...['Date', 'Security', 'Quantity', 'Proceeds', 'Cost', 'Gain', 'Rule'].map((h, i) => el('th', { scope: 'col', class: i >= 2 && i <= 5 ? 'n' : undefined }, h))));
      for (const d of ds.slice(0, MAX_ROWS)) {
        const neg = d.gain && d.gain.startsWith('-');
        t.append(el('tr', {}, el('td', {}, d.date), el('td', {}, d.ticker), el('td', { class: 'n' }, d.quantity), el('td', { class: 'n' }, pounds(d.proceeds)),
          el('td', { class: 'n' }, pounds(d.allowable_cost)), el('td', { class: neg ? 'n neg' : 'n' }, pounds(d.gain)), el('td', {}, (d.rules || []).join(', ').replace(/_/g, ' '))));
      }
      sec.append(el('div', { class: 'scroll' }, t));
      if (ds.length > MAX_ROWS) sec.append(el('p', { class: 'note' }, `The first ${MAX_ROWS} of ${ds.length} disposals; the report below lists them all.`));
    }
    return sec;
  }

  // --- try a sale (plan.sale, when the registry has it) ---------------------------------------

  async function planSale(event) {
    event.preventDefault();
    const out = $('#plan-out');
    if (!files.length) {
      out.replaceChildren(el('p', { class: 'error', role: 'alert' }, 'Choose your files first: the sale is worked out against them.'));
      return;
    }
    const form = new FormData($('#plan-form'));
    const args = { path: files.map((f) => f.name) };
    for (const k of ['ticker', 'quantity', 'price', 'date']) {
      const v = String(form.get(k) || '').trim();
      if (v) args[k] = v;
    }
    const income = $('#income').value.trim().replace(/[£,\s]/g, '');
    if (income) args.taxable_income = income;
    const losses = $('#losses').value.trim().replace(/[£,\s]/g, '');
    if (losses) args.losses_brought_forward = losses;
    setState('working', 'Working out the sale…');
    try {
      const r = await run('plan.sale', args, ['json', 'text']);
      if (!r.env.ok) {
        const e = r.env.error;
        out.replaceChildren(el('div', { class: 'error', role: 'alert' }, el('strong', {}, 'This needs fixing: '), e.message, el('br'), e.hint || ''));
        setState('error', `The sale was not worked out: ${e.message}`);
        return;
      }
      const w = r.env.warnings || [];
      out.replaceChildren(
        ...(w.length ? [el('ul', { class: 'warnings-box' }, ...w.map((x) => el('li', {}, x)))] : []),
        el('pre', { class: 'plan-text', tabindex: '0' }, r.text || JSON.stringify(r.env.data, null, 2)));
      setState('done', 'Done: the sale is worked out below.');
    } catch (err) {
      out.replaceChildren(el('p', { class: 'error', role: 'alert' }, `The sale could not be worked out: ${err.message}.`));
      setState('error', 'The sale could not be worked out.');
    }
  }

  // --- wiring ---------------------------------------------------------------------------------

  $('#files').addEventListener('change', (e) => takeFiles(e.target.files));
  $('#calculate').addEventListener('click', () => calculate(true));
  for (const id of ['#income', '#losses', '#year']) {
    $(id).addEventListener('change', () => calculate());
    $(id).addEventListener('keydown', (e) => { if (e.key === 'Enter') calculate(); });
  }
  $('#example').addEventListener('click', async () => {
    try {
      const response = await fetch('example.cgt');
      if (!response.ok) throw new Error(`${response.status} ${response.statusText}`);
      files = [{ name: 'portfolio.cgt', bytes: new Uint8Array(await response.arrayBuffer()), size: Number(response.headers.get('content-length')) || 0 }];
      files[0].size = files[0].size || files[0].bytes.length;
      ledgerCache = null;
      listFiles();
      calculate();
    } catch (err) {
      showError({ message: `The example ledger could not be loaded: ${err.message}.`, hint: 'Choose a file of your own instead.' }, []);
    }
  });
  $('#print-report').addEventListener('click', () => {
    const w = $('#report').contentWindow;
    if (w) w.print();
  });
  $('#plan-form').addEventListener('submit', planSale);

  const drop = $('#drop');
  for (const type of ['dragenter', 'dragover']) {
    document.addEventListener(type, (e) => { e.preventDefault(); drop.classList.add('over'); });
  }
  for (const type of ['dragleave', 'drop']) {
    document.addEventListener(type, (e) => { e.preventDefault(); if (type === 'drop' || e.target === document.documentElement) drop.classList.remove('over'); });
  }
  document.addEventListener('drop', (e) => takeFiles(e.dataTransfer && e.dataTransfer.files));

  startWorker();
})();
