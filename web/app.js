// cgt in the browser: the page's side. Every figure comes from cgt's registry, compiled to
// WebAssembly and run in worker.js: the page names a command and its arguments (as a script
// would with the CLI) and shows the envelope it gets back. It holds no tax rules of its own.
//
// Hooks for tests and scripts (docs: docs-site, "In your browser"): #files, #income,
// #losses, #year, select[data-account-for="FILE NAME"] (the account of each chosen file),
// [data-box="N"] (the figure to enter in box N), [data-figure="tax_due"] and
// [data-figure="taxable_gain"] (with data-value), #warnings li, #report, #download-report,
// #download-ledger, #prices, #plan-allowance [data-plan-figure=exempt_left],
// #plan-harvest [data-plan-figure=net_gain_after], #plan-ticker, #plan-quantity, #plan-price,
// #plan-run, #plan-out, body[data-state] = loading | ready | working | done | error.
'use strict';

(() => {
  const $ = (sel) => document.querySelector(sel);
  const body = document.body;
  const status = $('#status');

  // The most the page reads at once. The calculator holds every file, its transactions and
  // the report in the tab's memory; 10 MB of exports keeps the tab under 1 GB (docs-site,
  // "In your browser"). Larger inputs are refused before they are read.
  const MAX_BYTES = 10_000_000; // 10 MB
  // Above this, the page shows each year's totals and the summary report, not every
  // disposal and every match's working: those are in the command line's full report. A
  // full report of 10 MB of exports is some 100 MB of HTML, more than a tab should hold.
  const LARGE_BYTES = 1_000_000;
  // The account types a file can be declared as (the accounts argument's TYPE).
  const ACCOUNT_TYPES = [
    ['', 'Not declared'],
    ['ISA', 'ISA (tax-free)'],
    ['LISA', 'Lifetime ISA (tax-free)'],
    ['JISA', 'Junior ISA (tax-free)'],
    ['SIPP', 'SIPP (pension, tax-free)'],
    ['GIA', 'General account (taxable)'],
  ];

  let worker = null;
  let commands = [];
  let nextID = 1;
  const pending = new Map();
  // files are the files chosen: {name, given, bytes, size, rates, account}. name is the name
  // the calculator knows the file by (the browser's, with control characters as spaces, and
  // numbered when two are the same); given is the browser's, numbered likewise
  // (select[data-account-for] names it); rates marks an HMRC exchange-rate file.
  let files = [];
  let runSeq = 0;
  let lastRun = null; // {files, key}: what the latest calculation was asked, to run it once
  let ledger = null; // {key, promise}: the combined ledger of the latest calculation
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
        $('#plan-allowance').hidden = !commands.includes('plan.allowance');
        $('#plan-harvest').hidden = !commands.includes('plan.harvest');
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

  // run executes a registry command on the chosen files and resolves to {env, html, text}:
  // env is the envelope the CLI's --output json prints (its data only when render has
  // 'json'); html and text are the renderings render asks for.
  function run(command, args, render = []) {
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
        names: files.map((f) => f.name),
        contents: files.map((f) => f.bytes),
      });
    });
  }

  // --- files ---------------------------------------------------------------------------------

  // cleanName is a file's name as the page shows it and the calculator cites it: a name is
  // data, so control characters and line separators become spaces and nothing in it can
  // start a line of a ledger or a message.
  function cleanName(name) {
    const s = String(name || '').replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, ' ').trim();
    return s === '' || s === '-' ? 'file' : s;
  }

  // isRateFile recognises an HMRC monthly exchange-rate file by its content: XML whose root
  // element is exchangeRateMonthList.
  function isRateFile(bytes) {
    const head = new TextDecoder().decode(bytes.subarray(0, 4096)).replace(/^\uFEFF/, '');
    return /^\s*(<\?xml[^>]*\?>\s*)?(<!--[\s\S]*?-->\s*)*<exchangeRateMonthList[\s>/]/.test(head);
  }

  async function takeFiles(list) {
    const chosen = Array.from(list || []);
    if (!chosen.length) return;
    const total = chosen.reduce((n, f) => n + f.size, 0);
    if (total > MAX_BYTES) {
      refuse(chosen, total);
      return;
    }
    const seen = new Map();
    const read = [];
    for (const f of chosen) {
      // Two files of one name (two folders' exports) each keep their own, numbered.
      let name = cleanName(f.name);
      let given = f.name || 'file';
      const n = (seen.get(name) || 0) + 1;
      seen.set(name, n);
      if (n > 1) {
        const number = (s) => s.replace(/(\.[^.]*)?$/, (ext) => ` (${n})${ext || ''}`);
        name = number(name);
        given = number(given);
      }
      const before = files.find((old) => old.given === given);
      read.push(f.arrayBuffer().then((buf) => {
        const bytes = new Uint8Array(buf);
        return { name, given, bytes, size: f.size, rates: isRateFile(bytes), account: before ? before.account : '' };
      }));
    }
    try {
      files = await Promise.all(read);
    } catch (err) {
      showError({ message: `A file could not be read: ${err.message}.`, hint: 'Choose it again.' }, []);
      return;
    }
    listFiles();
    calculate();
  }

  // refuse says why the files chosen were not read: they are more than the page takes.
  function refuse(chosen, total) {
    files = [];
    lastRun = null;
    listFiles();
    const big = [...chosen].sort((a, b) => b.size - a.size)[0];
    const which = chosen.length === 1 ? `${cleanName(big.name)} is ${size(total)}` :
      `The ${chosen.length} files chosen are ${size(total)} together (the largest, ${cleanName(big.name)}, ${size(big.size)})`;
    showError({
      message: `${which}: the page reads up to ${size(MAX_BYTES)} of files at once, so nothing was read.`,
      hint: 'Choose fewer or smaller files (a broker lets you download one year at a time), or use the cgt command line, which reads files of any size.',
    }, []);
  }

  function listFiles() {
    const ul = $('#file-list');
    ul.replaceChildren(...files.map((f, i) => {
      const li = el('li', {}, el('span', { class: 'file-name' }, f.name), ` (${size(f.size)})`);
      if (f.rates) {
        li.append(': HMRC exchange rates');
        return li;
      }
      const id = `account-${i}`;
      const select = el('select', { id, 'data-account-for': f.given },
        ...ACCOUNT_TYPES.map(([value, label]) => el('option', { value, selected: value === f.account }, label)));
      select.addEventListener('change', () => {
        f.account = select.value;
        calculate();
      });
      li.append(' ', el('label', { for: id, class: 'account' }, 'Account: '), select);
      return li;
    }));
    $('#accounts-help').hidden = !files.some((f) => !f.rates);
  }

  // size is a number of bytes as file managers show it (1 MB = 1,000,000 bytes).
  function size(n) {
    if (n < 1000) return `${n} bytes`;
    if (n < 1000 * 1000) return `${(n / 1000).toFixed(1)} kB`;
    return `${(n / 1000 / 1000).toFixed(1)} MB`;
  }

  // --- the arguments every command gets: the files, their accounts, the rate files ---------

  function inputArgs() {
    const args = { path: files.filter((f) => !f.rates).map((f) => f.name) };
    const declared = files.filter((f) => !f.rates && f.account);
    if (declared.length) {
      // {"GLOB": "LABEL:TYPE"}, an account labelled by its type, so that two files of one type
      // are one account (overlapping downloads of it count once).
      args.accounts = Object.fromEntries(declared.map((f) => [fileGlob(f.name), `${f.account}:${f.account}`]));
    }
    const rates = files.filter((f) => f.rates).map((f) => f.name);
    if (rates.length) args.rates = rates;
    return args;
  }

  // fileGlob is the accounts pattern that matches exactly the file named: its glob characters
  // escaped, and a comma (which separates the argument's items) matched as any one character.
  function fileGlob(name) {
    return name.replace(/[*?[\\]/g, '\\$&').replace(/,/g, '?');
  }

  // incomeValue is the taxable income as the argument takes it: one amount (its thousands
  // commas dropped), or per year (2023:52000,2024:60000, where commas part the years).
  function incomeValue() {
    const v = $('#income').value.trim().replace(/[£\s]/g, '');
    return v.includes(':') ? v : v.replace(/,/g, '');
  }

  function amount(id) {
    return $(id).value.trim().replace(/[£,\s]/g, '');
  }

  function large() {
    return files.reduce((n, f) => n + f.size, 0) > LARGE_BYTES;
  }

  function reportArgs() {
    const args = { ...inputArgs(), detail: large() ? 'summary' : 'full' };
    const income = incomeValue();
    if (income) args.taxable_income = income;
    const losses = amount('#losses');
    if (losses) args.losses_brought_forward = losses;
    const year = $('#year').value.trim();
    if (year) args.year = year;
    return args;
  }

  // --- the calculation ------------------------------------------------------------------------

  async function calculate(force = false) {
    if (body.dataset.state === 'loading') return;
    if (!files.some((f) => !f.rates)) {
      if (files.length) showError({ message: 'Only exchange-rate files were chosen.', hint: 'Choose your ledgers or broker exports with them (several files at once).' }, []);
      return;
    }
    const args = reportArgs();
    const key = JSON.stringify(args);
    // Enter in a field and the change event that follows it ask for the same calculation.
    if (!force && lastRun && lastRun.files === files && lastRun.key === key && body.dataset.state !== 'error') return;
    lastRun = { files, key };
    const seq = ++runSeq;
    clearPlans();
    const n = files.length;
    setState('working', `Working it out from ${n} file${n === 1 ? '' : 's'}…`);
    try {
      // The figures (each year's totals and disposals, as JSON) and the full report as a page
      // are two runs, asked for together: two runs cost less than one full report written
      // both ways, and the figures are shown while the worker writes the page.
      const figuresRun = run('report.calculate', { ...args, detail: large() ? 'summary' : 'disposals' }, ['json']);
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
      // The combined ledger is worked out after the result is shown; the download waits for
      // it if it is asked for sooner.
      ledger = { key, promise: null };
      showReport(page.html, figures.env);
      if (!large()) {
        // The ledger and the plans are worked out beside the report, quietly: the page stays
        // done. For large files each waits until it is asked for: each run of the calculator
        // holds all the transactions again.
        combinedLedger();
        planAllowance();
        planHarvest();
      }
    } catch (err) {
      if (seq === runSeq) showError({ message: `The calculation failed: ${err.message}.`, hint: 'Reload the page and try again; if it fails again, please report it.' }, []);
    }
  }

  // combinedLedger resolves to the URL of the ledger the figures were worked out from, as one
  // .cgt file: transactions.import over the same files and accounts gives it (its text: the
  // sources combined as the engine combines them, each trade once, with the accounts
  // declared, after comments accounting for every row of every export).
  function combinedLedger() {
    const current = ledger;
    if (!current) return Promise.reject(new Error('nothing has been worked out yet'));
    if (!current.promise) {
      current.promise = ledgerText().then((text) => {
        const names = files.filter((f) => !f.rates).map((f) => `${f.name}${f.account ? ` (${f.account})` : ''}`);
        const head = `# Ledger of ${names.join(', ')}, combined by cgt in the browser on ${today()}.\n`;
        if (text && !text.endsWith('\n')) text += '\n';
        // A name is data: nothing in one starts a line (cleanName already made it one line).
        const url = blobURL('ledger', `${head.replace(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029]/g, ' ')}${text}`, 'text/plain;charset=utf-8');
        if (ledger === current) {
          $('#download-ledger').href = url;
          $('#download-ledger').dataset.ready = 'yes';
        }
        return url;
      });
      current.promise.catch(() => {});
    }
    return current.promise;
  }

  async function ledgerText() {
    const { rates, ...args } = inputArgs(); // an import converts no currency
    const r = await run('transactions.import', args, ['text']);
    if (!r.env.ok) throw new Error(r.env.error.message);
    return r.text || '';
  }

  async function downloadLedger(event) {
    const link = $('#download-ledger');
    if (link.dataset.ready === 'yes') return; // the browser downloads it
    event.preventDefault();
    try {
      link.href = await combinedLedger();
      link.dataset.ready = 'yes';
      link.click();
    } catch (err) {
      status.textContent = `The ledger could not be put together: ${err.message}. The figures above stand; the cgt command line writes the ledger too (cgt transactions.import FILE... --output text).`;
    }
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

  // unique keeps the first of each warning: a message is shown once, however many of the
  // runs behind the page raised it.
  function unique(warnings) {
    return [...new Set(warnings || [])];
  }

  function showWarnings(warnings) {
    const list = unique(warnings);
    $('#warnings').replaceChildren(...list.map((w) => el('li', {}, w)));
    $('#warnings-box').hidden = !list.length;
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
    ledger = null;
    clearPlans();
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

  function showReport(html, env) {
    $('#download-report').href = blobURL('report', html, 'text/html;charset=utf-8');
    const link = $('#download-ledger');
    link.href = '#';
    link.dataset.ready = 'no';
    $('#downloads').hidden = false;

    const frame = $('#report');
    frame.onload = () => {
      const doc = frame.contentDocument;
      if (!doc || !doc.documentElement) return;
      hideReportWarnings(doc);
      frame.style.height = `${doc.documentElement.scrollHeight + 20}px`;
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
    const nw = unique(env.warnings).length;
    if (nw) summary += `; ${nw} thing${nw === 1 ? '' : 's'} to check first`;
    setState('done', `${summary}.`);
  }

  // hideReportWarnings keeps the report in the page from listing the warnings a second time
  // (they are above it, in #warnings): on screen its "Check these first" gives way to a line
  // pointing there; printed, and in the downloaded report, they stay.
  function hideReportWarnings(doc) {
    const list = doc.querySelector('ul.warn');
    const heading = list && list.previousElementSibling;
    if (!list || !heading || heading.tagName !== 'H2') return;
    const style = doc.createElement('style');
    style.textContent = '@media screen{.cgt-in-page{display:none}}@media print{.cgt-on-screen{display:none}}';
    doc.head.append(style);
    heading.classList.add('cgt-in-page');
    list.classList.add('cgt-in-page');
    const note = doc.createElement('p');
    note.className = 'note cgt-on-screen';
    note.textContent = 'The things to check first are listed above the figures.';
    list.after(note);
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
    if (!ds.length && ty.disposal_count > 0) {
      sec.append(el('p', { class: 'note' }, `${ty.disposal_count} disposals. Your files are large, so the page lists them in totals only; the command line lists every one with its working (cgt report.calculate FILES --output html).`));
    }
    if (ds.length) {
      sec.append(el('h4', {}, `Disposals (${ds.length})`));
      const heads = ['Date', 'Security', 'Quantity', 'Proceeds', 'Cost', 'Gain', 'Rule'];
      const numeric = (i) => i >= 2 && i <= 5;
      const t = el('table', { class: 'disposals' }, el('thead', {}, el('tr', {}, ...heads.map((h, i) => el('th', { scope: 'col', class: numeric(i) ? 'n' : undefined }, h)))));
      const tb = el('tbody');
      for (const d of ds.slice(0, MAX_ROWS)) {
        const neg = d.gain && d.gain.startsWith('-');
        const cells = [d.date, d.ticker, d.quantity, pounds(d.proceeds), pounds(d.allowable_cost), pounds(d.gain), (d.rules || []).join(', ').replace(/_/g, ' ')];
        tb.append(el('tr', {}, ...cells.map((c, i) => el('td', {
          'data-label': heads[i],
          'data-col': heads[i].toLowerCase(),
          class: [numeric(i) && 'n', i === 5 && neg && 'neg'].filter(Boolean).join(' ') || undefined,
        }, c))));
      }
      t.append(tb);
      sec.append(el('div', { class: 'scroll' }, t));
      if (ds.length > MAX_ROWS) sec.append(el('p', { class: 'note' }, `The first ${MAX_ROWS} of ${ds.length} disposals; the report below lists them all.`));
    }
    return sec;
  }

  // --- planning: allowance, harvest, try a sale (when the registry has them) ------------------

  // planArgs are the arguments every plan gets: the files as the report reads them, the
  // losses brought forward, and the day from the view's own date field.
  function planArgs(dateField) {
    const args = inputArgs();
    const losses = amount('#losses');
    if (losses) args.losses_brought_forward = losses;
    const income = incomeValue();
    if (income) args.taxable_income = income;
    const date = dateField && $(dateField).value;
    if (date) args.date = date;
    return args;
  }

  function clearPlans() {
    for (const id of ['#plan-allowance', '#plan-harvest']) $(`${id} .plan-result`).replaceChildren();
    $('#plan-out').replaceChildren();
  }

  function planError(e) {
    const parts = [el('strong', {}, 'This needs fixing: '), e.message || 'something went wrong.'];
    if (e.hint) parts.push(el('br'), e.hint);
    if (e.examples && e.examples.length) parts.push(el('pre', {}, `For example:\n${e.examples.join('\n')}`));
    return el('div', { class: 'error', role: 'alert' }, ...parts);
  }

  // warningList lists a plan's warnings that the page does not already show (the report's,
  // above, and the other plans'): each warning is shown once.
  function warningList(warnings, out) {
    const elsewhere = new Set([...document.querySelectorAll('#warnings li, #plan .warnings-box li')]
      .filter((li) => !out.contains(li)).map((li) => li.textContent));
    const list = unique(warnings).filter((w) => !elsewhere.has(w));
    return list.length ? [el('ul', { class: 'warnings-box' }, ...list.map((x) => el('li', {}, x)))] : [];
  }

  function figureTable(rows) {
    const t = el('table', { class: 'figures' });
    for (const [label, value, figure] of rows) {
      if (value === undefined || value === null) continue;
      t.append(el('tr', {}, el('th', { scope: 'row' }, label),
        el('td', { class: 'n', 'data-plan-figure': figure, 'data-value': figure ? value : undefined }, pounds(value))));
    }
    return el('div', { class: 'scroll' }, t);
  }

  // planView runs one plan for a view and shows what it gives; it resolves to whether the
  // plan was worked out.
  async function planView(view, command, args, render) {
    const out = $(`${view} .plan-result`);
    const seq = runSeq;
    let r;
    try {
      r = await run(command, args, ['json']);
    } catch (err) {
      out.replaceChildren(el('p', { class: 'error', role: 'alert' }, `The plan could not be worked out: ${err.message}.`));
      return false;
    }
    if (seq !== runSeq) return true;
    if (!r.env.ok) {
      out.replaceChildren(planError(r.env.error));
      return false;
    }
    out.replaceChildren(...warningList(r.env.warnings, out), ...render(r.env.data));
    return true;
  }

  // plansAsked works out the plans a person asked for (a price, a date, the button), saying
  // so in the page's state.
  async function plansAsked(...plans) {
    if (!lastRun || body.dataset.state === 'loading') return;
    setState('working', 'Working out the plan…');
    const ok = (await Promise.all(plans.map((p) => p()))).every(Boolean);
    if (ok) setState('done', 'Done: the plan is worked out below.');
    else setState('error', 'The plan was not worked out: see the planning section.');
  }

  function planAllowance() {
    if (!commands.includes('plan.allowance') || !lastRun) return Promise.resolve(true);
    const args = planArgs('#allowance-date');
    const prices = $('#prices').value.trim();
    if (prices) args.prices = prices;
    return planView('#plan-allowance', 'plan.allowance', args, (d) => {
      const parts = [el('p', {}, `Tax year ${d.tax_year}, on ${d.date}: ${d.disposal_count} disposal${d.disposal_count === 1 ? '' : 's'} so far.`),
        figureTable([
          ['Annual exempt amount', d.annual_exempt_amount],
          ['Net gain so far', d.net_gain, 'net_gain'],
          ['Exempt amount left', d.exempt_left, 'exempt_left'],
          ['Losses brought forward', d.losses_available],
          ['Taxable gain so far', d.taxable_gain],
          ['Tax so far', d.tax],
        ])];
      const held = d.holdings || [];
      if (held.length) {
        const t = el('table', { class: 'holdings' }, el('thead', {}, el('tr', {}, el('th', { scope: 'col' }, 'Security'), el('th', { scope: 'col', class: 'n' }, 'Held'),
          el('th', { scope: 'col', class: 'n' }, 'Cost'), el('th', { scope: 'col', class: 'n' }, 'Gain if all sold'))));
        for (const h of held) {
          t.append(el('tr', {}, el('td', {}, h.ticker), el('td', { class: 'n' }, h.quantity), el('td', { class: 'n' }, pounds(h.cost)),
            el('td', { class: h.unrealised_gain && h.unrealised_gain.startsWith('-') ? 'n neg' : 'n' }, h.unrealised_gain ? pounds(h.unrealised_gain) : 'give a price')));
        }
        parts.push(el('h4', {}, 'Holdings'), el('div', { class: 'scroll' }, t));
      }
      const windows = d.open_windows || [];
      if (windows.length) {
        parts.push(el('h4', {}, 'Open 30-day windows'), el('ul', {}, ...windows.map((w) => el('li', {},
          `${w.ticker}: ${w.quantity} sold on ${w.sale_date}; buying it back up to ${w.until} is matched with that sale (first safe day ${w.first_safe_rebuy}).`))));
      }
      return parts;
    });
  }

  function planHarvest() {
    if (!commands.includes('plan.harvest') || !lastRun) return Promise.resolve(true);
    const out = $('#plan-harvest .plan-result');
    const prices = $('#prices').value.trim();
    if (!prices) {
      out.replaceChildren(el('p', { class: 'note' }, 'Enter today’s prices above to get the sales.'));
      return Promise.resolve(true);
    }
    const args = { ...planArgs('#harvest-date'), prices };
    const target = amount('#harvest-target');
    if (target) args.target_gain = target;
    return planView('#plan-harvest', 'plan.harvest', args, (d) => {
      const parts = [el('p', {}, `Tax year ${d.tax_year}, selling on ${d.date}: aiming for a net gain of ${pounds(d.target)}.`),
        figureTable([
          ['Gain the sales realise', d.realised_gain, 'realised_gain'],
          ['Net gain before', d.before && d.before.net_gain, 'net_gain_before'],
          ['Net gain after the sales', d.after && d.after.net_gain, 'net_gain_after'],
          ['Exempt amount left after', d.after && d.after.exempt_left, 'exempt_left_after'],
          ['Taxable gain after', d.after && d.after.taxable_gain],
          ['Tax after', d.after && d.after.tax],
        ])];
      if (d.search_bounded) parts.push(el('p', { class: 'note' }, 'The search stopped at its time limit: these are the closest sales it found, not necessarily the closest there are.'));
      const sales = d.sales || [];
      if (sales.length) {
        const t = el('table', { class: 'sales' }, el('thead', {}, el('tr', {}, el('th', { scope: 'col' }, 'Sell'), el('th', { scope: 'col', class: 'n' }, 'Quantity'),
          el('th', { scope: 'col', class: 'n' }, 'of held'), el('th', { scope: 'col', class: 'n' }, 'Gain'))));
        for (const s of sales) {
          t.append(el('tr', {}, el('td', {}, s.ticker), el('td', { class: 'n' }, s.quantity), el('td', { class: 'n' }, s.held),
            el('td', { class: s.gain.startsWith('-') ? 'n neg' : 'n' }, pounds(s.gain))));
        }
        parts.push(el('h4', {}, 'The sales'), el('div', { class: 'scroll' }, t));
        if (d.lines) parts.push(el('pre', { class: 'plan-text', tabindex: '0' }, d.lines));
        if (d.defeats) parts.push(el('p', {}, d.defeats));
        else if (d.first_safe_rebuy) parts.push(el('p', {}, `Buying any of them back before ${d.first_safe_rebuy} would be matched with the sale (the 30-day rule) and undo the plan.`));
      } else {
        parts.push(el('p', {}, 'No sale brings the net gain nearer the target.'));
      }
      return parts;
    });
  }

  async function planSale(event) {
    event.preventDefault();
    const out = $('#plan-out');
    if (!files.some((f) => !f.rates)) {
      out.replaceChildren(el('p', { class: 'error', role: 'alert' }, 'Choose your files first: the sale is worked out against them.'));
      return;
    }
    const form = new FormData($('#plan-form'));
    const args = planArgs();
    for (const k of ['ticker', 'quantity', 'price', 'date']) {
      const v = String(form.get(k) || '').trim();
      if (v) args[k] = v;
    }
    setState('working', 'Working out the sale…');
    try {
      const r = await run('plan.sale', args, ['json', 'text']);
      if (!r.env.ok) {
        out.replaceChildren(planError(r.env.error));
        setState('error', `The sale was not worked out: ${r.env.error.message}`);
        return;
      }
      out.replaceChildren(...warningList(r.env.warnings, out),
        el('pre', { class: 'plan-text', tabindex: '0' }, r.text || JSON.stringify(r.env.data, null, 2)));
      setState('done', 'Done: the sale is worked out below.');
    } catch (err) {
      out.replaceChildren(el('p', { class: 'error', role: 'alert' }, `The sale could not be worked out: ${err.message}.`));
      setState('error', 'The sale could not be worked out.');
    }
  }

  // --- wiring ---------------------------------------------------------------------------------

  // onCommit calls f when a field's value is changed or Enter is pressed in it; the change event
  // that follows an Enter does not call it again.
  function onCommit(id, f) {
    let last = null;
    const commit = () => {
      const v = $(id).value;
      if (v === last) return;
      last = v;
      f();
    };
    $(id).addEventListener('change', commit);
    $(id).addEventListener('keydown', (e) => {
      if (e.key === 'Enter') {
        e.preventDefault();
        last = null;
        commit();
      }
    });
  }

  $('#files').addEventListener('change', (e) => takeFiles(e.target.files));
  $('#calculate').addEventListener('click', () => calculate(true));
  for (const id of ['#income', '#losses', '#year']) {
    $(id).addEventListener('change', () => calculate());
    $(id).addEventListener('keydown', (e) => { if (e.key === 'Enter') calculate(); });
  }
  const plans = () => plansAsked(planAllowance, planHarvest);
  onCommit('#prices', plans);
  $('#prices-run').addEventListener('click', plans);
  onCommit('#allowance-date', () => plansAsked(planAllowance));
  onCommit('#harvest-date', () => plansAsked(planHarvest));
  onCommit('#harvest-target', () => plansAsked(planHarvest));
  $('#example').addEventListener('click', async () => {
    try {
      const response = await fetch('example.cgt');
      if (!response.ok) throw new Error(`${response.status} ${response.statusText}`);
      const bytes = new Uint8Array(await response.arrayBuffer());
      files = [{ name: 'portfolio.cgt', given: 'portfolio.cgt', bytes, size: bytes.length, rates: false, account: '' }];
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
  $('#download-ledger').addEventListener('click', downloadLedger);
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
