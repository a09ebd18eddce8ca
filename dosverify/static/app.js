// The organiser's page: plain JavaScript over the public API (POST /v1/replay,
// GET /v1/rules/{id}, GET /v1/rulesets). Nothing is loaded from anywhere but this server.
// The event view, the audits' permalinks and the upload into an event are in events.js.
"use strict";

const $ = (sel) => document.querySelector(sel);
const state = {
  games: [],          // {name, bytes, json, result}
  sortKey: null, sortDir: 1,
  current: null,      // the game in the single view
  step: 0,            // the replay's state index
  rules: new Map(),   // rule id -> promise of the rule
  pending: [],        // files chosen or dropped, not yet checked
  run: 0,             // the check under way (checkAll), counted so that a stale one shows nothing
};

function el(tag, attrs, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") e.className = v;
    else if (k === "text") e.textContent = v;
    else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined) continue;
    e.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return e;
}

function say(msg) { $("#status").textContent = msg; }

// "1 log", "2 logs", "0 errors": a count with its word in the right number.
function plural(n, word, many) { return `${n} ${n === 1 ? word : (many || word + "s")}`; }

// ---- the ruleset and options chooser ----------------------------------------------------
// One chooser per game (GET /v1/games, then /v1/rulesets?game=): it shows the game of the log
// pasted or chosen, and each game keeps its own choices, so that a folder of several games is
// judged with each game's ruleset and options (sent as `GAME:KEY=VALUE`, which the server
// applies to that game's logs only).

const games = {list: [], byName: {}, shown: null, choices: {}};

async function loadRulesets() {
  try {
    const r = await fetch("/v1/games");
    const data = await r.json();
    games.list = data.games.map((g) => g.name);
    games.fallback = data.default;
    games.logSuffixes = data.log_suffixes;
    for (const g of data.games) {
      const rr = await fetch("/v1/rulesets?game=" + encodeURIComponent(g.name));
      games.byName[g.name] = {...g, spec: await rr.json()};
      games.choices[g.name] = {ruleset: "", options: {}};
      $("#opt-game").append(el("option", {value: g.name}, g.title));
    }
    showExamples(data.games);
    showChooser(data.default);
  } catch (e) {
    say("Could not load the rulesets: " + e);
  }
}

// An example of each game one click away (its pack's example log, GET /v1/games/{game}/example),
// and a link to each game's notation.
function showExamples(list) {
  const withExample = list.filter((g) => g.example);
  $("#example-list").replaceChildren(...withExample.map((g) =>
    el("button", {type: "button", class: "secondary", "data-game": g.name, "aria-label": `${g.title} example`,
                  onclick: () => loadExample(g)}, g.title)));
  $("#examples").hidden = !withExample.length;
  const withNotation = list.filter((g) => g.notation);
  $("#notations").replaceChildren("Notations: ", ...withNotation.flatMap((g, k) =>
    [k ? ", " : "", el("a", {href: g.notation, "data-game": g.name, "aria-label": `${g.title} notation`}, g.title)]));
  $("#notations").hidden = !withNotation.length;
}

async function loadExample(g) {
  try {
    const r = await fetch(g.example);
    if (!r.ok) throw new Error(`HTTP ${r.status}`);
    $("#log-text").value = await r.text();
  } catch (e) {
    say(`Could not load the ${g.title} example: ${e.message || e}`);
    return;
  }
  $("#files").value = ""; $("#folder").value = ""; choose([]);
  keepChoices(); showChooser(g.name);
  say(`The ${g.title} example is in the box: choose Check to check it.`);
}

// The folded options' summary: the game's, and what is set.
function optionsSummary() {
  const info = games.byName[games.shown], mine = games.choices[games.shown];
  if (!info || !mine) return;
  const set = Object.entries(mine.options).map(([k, v]) => `${k}=${v}`);
  $("#options-summary").textContent = `${info.title}: ` +
    (mine.ruleset ? `ruleset ${mine.ruleset}` : "the log's own ruleset") +
    (set.length ? `, ${set.join(", ")}` : " and options");
}

function showChooser(game) {
  if (!games.byName[game] || games.shown === game) return;
  games.shown = game;
  $("#opt-game").value = game;
  const info = games.byName[game], mine = games.choices[game];
  const rs = $("#ruleset");
  rs.replaceChildren(el("option", {value: ""}, "the log's own"));
  for (const r of info.spec.rulesets) rs.append(el("option", {value: r.name}, `${r.name}: ${r.title}`));
  rs.value = mine.ruleset;
  const list = $("#option-list");
  list.replaceChildren();
  for (const [key, opt] of Object.entries(info.spec.options)) {
    const id = `opt-${key}`;
    const sel = el("select", {id, "data-option": key},
      el("option", {value: ""}, "as the ruleset says"),
      Object.keys(opt.values).map((v) => el("option", {value: v, title: opt.values[v]}, v)));
    sel.value = mine.options[key] || "";
    list.append(el("div", {class: "opt"}, el("label", {for: id, title: opt.text}, key), sel));
  }
  $("#options-legend").textContent = `${info.title} options (override the ruleset's)`;
  optionsSummary();
}

// ` with KEY=VALUE, ...`: the options in force that differ from the named ruleset's, as the
// command line's summary says them.
function optionsDiff(rep, game) {
  const info = games.byName[game];
  const named = info && info.spec.rulesets.find((r) => r.name === rep.ruleset);
  if (!named || !rep.options) return "";
  const diff = Object.entries(rep.options).filter(([k, v]) => named.options[k] !== undefined && named.options[k] !== v);
  return diff.length ? " with " + diff.map(([k, v]) => `${k}=${v}`).join(", ") : "";
}

function keepChoices() {
  const mine = games.choices[games.shown];
  if (!mine) return;
  mine.ruleset = $("#ruleset").value;
  for (const sel of document.querySelectorAll("[data-option]")) {
    if (sel.value) mine.options[sel.dataset.option] = sel.value; else delete mine.options[sel.dataset.option];
  }
  optionsSummary();
}

// The game a log is of, as the server tells it (POST /v1/game: the one place a log's game is
// told, its first word or its JSON game key), from its first 4 KiB; remembered by that head.
const gameOfHead = new Map();
async function gameOf(bytes) {
  const head = bytes.slice(0, 4096);
  const key = new TextDecoder().decode(head);
  if (!gameOfHead.has(key)) {
    gameOfHead.set(key, fetch("/v1/game", {method: "POST", headers: {"Content-Type": "text/plain; charset=utf-8"}, body: head})
      .then((r) => (r.ok ? r.json() : {game: games.fallback})).then((d) => d.game).catch(() => games.fallback));
  }
  return gameOfHead.get(key);
}

function queryFor(name, game) {
  keepChoices();
  const q = new URLSearchParams({name});
  const mine = games.choices[game];
  if (mine && mine.ruleset) q.set("ruleset", mine.ruleset);
  for (const [g, c] of Object.entries(games.choices)) {
    for (const [k, v] of Object.entries(c.options)) q.append("option", `${g}:${k}=${v}`);
  }
  return q;
}

// ---- checking ---------------------------------------------------------------------------

function looksJson(bytes) {
  for (const b of bytes) {
    if (b === 0x20 || b === 0x09 || b === 0x0a || b === 0x0d || b === 0xef || b === 0xbb || b === 0xbf) continue;
    return b === 0x7b; // {
  }
  return false;
}

async function replayOne(game) {
  game.game = await gameOf(game.bytes);
  const r = await fetch("/v1/replay?" + queryFor(game.name, game.game), {
    method: "POST",
    headers: {"Content-Type": game.json ? "application/json" : "text/plain; charset=utf-8"},
    body: game.bytes,
  });
  const body = await r.json();
  if (!r.ok) throw new Error(`${body.title}: ${body.detail}`);
  return body;
}

async function checkAll(inputs) {
  $("#event").hidden = true;  // checked here, not kept: the URL no longer names an event or an audit
  if (/^#(event|audit)=/.test(location.hash)) history.replaceState(null, "", location.pathname + location.search);
  const run = ++state.run;  // a newer check, or Clear, makes this one's answers stale
  const list = inputs.map(({name, bytes}) => ({name, bytes, json: looksJson(bytes), result: null, error: null}));
  say(`Checking ${plural(inputs.length, "log")}…`);
  let next = 0, done = 0;
  async function worker() {
    while (next < list.length && run === state.run) {
      const g = list[next++];
      try { g.result = await replayOne(g); } catch (e) { g.error = String(e.message || e); }
      done++;
      if (run === state.run) say(`Checked ${done} of ${plural(list.length, "log")}…`);
    }
  }
  await Promise.all([worker(), worker(), worker(), worker()]);
  if (run !== state.run) return;
  state.games = list;
  const failed = state.games.filter((g) => g.error);
  if (failed.length) {
    say(`${plural(failed.length, "request")} refused: ${failed[0].name}: ${failed[0].error}`);
    state.games = state.games.filter((g) => !g.error);
  } else {
    const n = state.games.length;
    const legal = state.games.filter((g) => g.result.report.verdict === "legal").length;
    say(`Checked ${plural(n, "log")}: ${legal} legal, ${n - legal} not.`);
  }
  if (state.games.length === 1) {
    $("#many").hidden = true;
    openGame(0, false);
  } else if (state.games.length > 1) {
    $("#single").hidden = true;
    renderMany();
    $("#many").hidden = false;
    bringIntoView($("#many-h"));
  }
}

async function submit(ev) {
  ev.preventDefault();
  let inputs;
  if (state.pending.length) {
    inputs = await Promise.all(state.pending.map(async (f) => ({name: f.name, bytes: new Uint8Array(await f.arrayBuffer())})));
  } else if ($("#log-text").value.trim()) {
    inputs = [{name: "pasted log", bytes: new TextEncoder().encode($("#log-text").value)}];
  } else {
    say("Paste a log, or drop or choose log files, first.");
    return;
  }
  await checkAll(inputs);
}

// Logs in a folder: the file names that `dosverify check DIR` takes (GET /v1/games: `log_suffixes`,
// in any case), but the expected-findings files beside fixtures (*.expected.json).
function isLog(name) {
  const lower = name.toLowerCase();
  return (games.logSuffixes || [".log", ".txt", ".json"]).some((x) => lower.endsWith(x)) && !lower.endsWith(".expected.json");
}

async function filesOfDrop(dt) {
  const entries = Array.from(dt.items || []).map((it) => it.webkitGetAsEntry && it.webkitGetAsEntry()).filter(Boolean);
  if (!entries.some((e) => e.isDirectory)) return Array.from(dt.files);
  const out = [];
  async function walk(entry) {
    if (entry.isFile) {
      if (isLog(entry.name)) {
        const f = await new Promise((ok, bad) => entry.file(ok, bad));
        f.relPath = entry.fullPath.replace(/^\/+/, "");  // "night/table-1.log": where it was in the folder dropped
        out.push(f);
      }
    } else if (entry.isDirectory) {
      const reader = entry.createReader();
      for (;;) {
        const batch = await new Promise((ok, bad) => reader.readEntries(ok, bad));
        if (!batch.length) break;
        for (const e of batch) await walk(e);
      }
    }
  }
  for (const e of entries) await walk(e);
  return out;
}

function choose(files) {
  state.pending = Array.from(files).sort((a, b) => a.name.localeCompare(b.name, undefined, {numeric: true}));
  $("#chosen").textContent = state.pending.length
    ? `${plural(state.pending.length, "file")} chosen: ${state.pending.map((f) => f.name).slice(0, 5).join(", ")}${state.pending.length > 5 ? ", …" : ""}`
    : "";
  if (state.pending.length) {  // the chooser shows the first file's game
    state.pending[0].slice(0, 4096).arrayBuffer().then(async (b) => { const g = await gameOf(new Uint8Array(b)); keepChoices(); showChooser(g); });
  }
}

// ---- the many-logs view -----------------------------------------------------------------

// A game's name for people (its pack's title) from the game a report names (the default game's
// report leaves its game out).
function gameTitle(rep) {
  const game = rep.game || games.fallback;
  return (games.byName[game] && games.byName[game].title) || game;
}

function row(g) {
  const rep = g.result.report;
  return {
    name: g.name, game: gameTitle(rep), verdict: rep.verdict, rounds: rep.rounds, turns: rep.turns, ruleset: rep.ruleset || "",
    players: g.result.players.join(" "),
    errors: rep.findings.filter((f) => f.severity === "error").length,
    warnings: rep.findings.filter((f) => f.severity === "warning").length,
  };
}

function shownGames() {
  const text = $("#filter").value.trim().toLowerCase();
  const verdict = $("#verdict-filter").value;
  let list = state.games.map((g, i) => ({g, i, r: row(g)}))
    .filter(({r}) => (!verdict || r.verdict === verdict) &&
                     (!text || r.name.toLowerCase().includes(text) || r.players.toLowerCase().includes(text)));
  if (state.sortKey) {
    const k = state.sortKey, d = state.sortDir;
    list.sort((a, b) => {
      const x = a.r[k], y = b.r[k];
      const c = typeof x === "number" ? x - y : String(x).localeCompare(String(y), undefined, {numeric: true});
      return c * d || a.i - b.i;
    });
  }
  return list;
}

function renderMany() {
  const tbody = $("#games tbody");
  tbody.replaceChildren();
  const list = shownGames();
  for (const {g, i, r} of list) {
    tbody.append(el("tr", {"data-verdict": r.verdict},
      el("th", {scope: "row"}, el("button", {type: "button", class: "link", onclick: () => openGame(i, true)}, r.name)),
      el("td", {}, r.game),
      el("td", {}, el("span", {class: `badge v-${r.verdict}`}, r.verdict)),
      el("td", {class: "num"}, r.rounds), el("td", {}, r.players),
      el("td", {class: "num"}, r.errors), el("td", {class: "num"}, r.warnings)));
  }
  $("#many-h").textContent = `Games (${list.length} of ${state.games.length} shown)`;
  for (const th of document.querySelectorAll("#games th[aria-sort]")) {
    const k = th.querySelector("button").dataset.key;
    th.setAttribute("aria-sort", k === state.sortKey ? (state.sortDir > 0 ? "ascending" : "descending") : "none");
  }
}

function sortBy(key) {
  if (state.sortKey === key) state.sortDir = -state.sortDir;
  else { state.sortKey = key; state.sortDir = ["errors", "warnings", "rounds"].includes(key) ? -1 : 1; }
  renderMany();
}

function download(name, type, text) {
  const url = URL.createObjectURL(new Blob([text], {type}));
  const a = el("a", {href: url, download: name});
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

function csvCell(v) {
  const s = String(v);
  return /[",\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

function downloadCsv() {
  const cols = ["name", "game", "verdict", "ruleset", "rounds", "turns", "players", "errors", "warnings"];
  const lines = [[...cols, "totals"].join(",")];
  for (const {g, r} of shownGames()) {
    const totals = g.result.players.map((p) => `${p} ${g.result.totals[p] || 0}`).join("; ");
    lines.push([...cols.map((c) => csvCell(r[c])), csvCell(totals)].join(","));
  }
  download("dosverify-results.csv", "text/csv", lines.join("\n") + "\n");
}

function downloadJson() {
  const out = shownGames().map(({g, r}) => ({name: g.name, game: g.result.report.game || games.fallback, title: r.game,
                                             players: g.result.players, totals: g.result.totals, report: g.result.report}));
  download("dosverify-results.json", "application/json", JSON.stringify(out, null, 2) + "\n");
}

// ---- the single-log view ----------------------------------------------------------------

function logText(g) {
  const text = new TextDecoder("utf-8", {fatal: false}).decode(g.bytes);
  return text.replace(/\r\n?/g, "\n");
}

// A JSON log is shown pretty-printed (one event a line), with the line of every JSON pointer,
// so that its findings (which carry pointers, not lines) are marked like a text log's.
function prettyJson(value) {
  const lines = [], at = new Map();
  const esc = (k) => String(k).replace(/~/g, "~0").replace(/\//g, "~1");
  function emit(v, ptr, indent, prefix, suffix) {
    const start = lines.length + 1;
    const flat = JSON.stringify(v);
    if (v === null || typeof v !== "object" || indent.length + prefix.length + flat.length <= 90) {
      lines.push(indent + prefix + flat + suffix);
    } else {
      const isArr = Array.isArray(v);
      const entries = isArr ? v.map((x, i) => [i, x]) : Object.entries(v);
      lines.push(indent + prefix + (isArr ? "[" : "{"));
      entries.forEach(([k, x], n) => emit(x, `${ptr}/${esc(k)}`, indent + "  ", isArr ? "" : JSON.stringify(k) + ": ",
                                          n < entries.length - 1 ? "," : ""));
      lines.push(indent + (isArr ? "]" : "}") + suffix);
    }
    at.set(ptr, [start, lines.length]);
  }
  emit(value, "", "", "", "");
  return {lines, at};
}

function display(g) {
  const text = logText(g);
  if (g.json) {
    try {
      const {lines, at} = prettyJson(JSON.parse(text));
      const range = (ptr) => {
        if (ptr === null || ptr === undefined) return null;
        for (let q = ptr; ; q = q.slice(0, q.lastIndexOf("/"))) {
          if (at.has(q)) return at.get(q);
          if (!q) return null;
        }
      };
      return {lines, pretty: true, lineOf: (f) => (range(f.pointer) || [null])[0], rangeOf: (s) => range(s.pointer)};
    } catch (e) { /* not JSON: shown as it is, with the lines its findings name */ }
  }
  const lines = text.split("\n");
  if (lines.length && lines[lines.length - 1] === "") lines.pop();
  return {lines, pretty: false, lineOf: (f) => f.line, rangeOf: (s) => (s.line ? [s.line, s.end_line || s.line] : null)};
}

function openGame(i, fromList) {
  showGame(state.games[i], fromList || state.games.length >= 2);
}

// One game in the single view: a log checked here, or an audit of an event (g.audit, g.backTo).
function showGame(g, back) {
  state.current = g;
  const rep = g.result.report;
  $("#back-btn").hidden = !back;
  $("#back-btn").textContent = g.backTo ? "Back to the event" : "Back to all games";
  $("#audit-meta").hidden = !g.audit;
  $("#event").hidden = true;
  $("#single-h").textContent = g.name;
  const errors = rep.findings.filter((f) => f.severity === "error").length;
  const warnings = rep.findings.length - errors;
  const v = $("#verdict");
  v.className = `verdict v-${rep.verdict}`;
  v.textContent = `${rep.verdict}: ${plural(errors, "error")}, ${plural(warnings, "warning")}; ` +
    `${plural(rep.rounds, "round")}, ${plural(rep.turns, "turn")}` +
    (rep.ruleset ? `; ruleset ${rep.ruleset}${optionsDiff(rep, g.game || rep.game || games.fallback)}` : "") + ` (spec ${rep.spec_version})`;

  // the log, numbered, each finding's line marked with its kinds
  const view = g.view = display(g);
  const byLine = new Map();
  rep.findings.forEach((f, k) => {
    const ln = view.lineOf(f);
    if (ln) (byLine.get(ln) || byLine.set(ln, []).get(ln)).push(k);
  });
  const lines = view.lines;
  $("#log-h").textContent = view.pretty ? "The log (JSON, laid out one event a line)" : "The log";
  const box = $("#log-lines");
  box.replaceChildren();
  lines.forEach((text, n) => {
    const ln = n + 1, fs = byLine.get(ln) || [];
    const sev = fs.some((k) => rep.findings[k].severity === "error") ? "error" : fs.length ? "warning" : null;
    box.append(el("div", {id: `L${ln}`, class: `line${sev ? " finding " + sev : ""}`, "data-line": ln, tabindex: "-1"},
      el("span", {class: "ln", "aria-hidden": "true"}, ln),
      el("code", {}, text || " "),
      fs.length ? el("span", {class: "kinds"}, [...new Set(fs.map((k) => rep.findings[k].kind))].map((kind) =>
        el("span", {class: `kind ${sev}`}, kind))) : null));
  });

  // the findings, each linking to its line
  const ol = $("#findings");
  ol.replaceChildren();
  if (!rep.findings.length) ol.append(el("li", {class: "muted"}, "No findings: every rule was kept."));
  rep.findings.forEach((f, k) => {
    const shown = view.lineOf(f);
    const where = f.line ? `line ${f.line}${f.column ? ":" + f.column : ""}`
      : f.pointer !== null ? `at ${f.pointer || "/"}${shown ? ` (line ${shown})` : ""}` : "";
    const details = el("div", {class: "rule", hidden: true});
    const stateIdx = g.result.states.findIndex((s) => s.findings.includes(k));
    ol.append(el("li", {class: `finding-item ${f.severity}`, "data-finding": k},
      el("button", {type: "button", class: "link goto", onclick: () => gotoFinding(k)},
        `${f.severity}[${f.kind}] ${where}`),
      el("p", {}, f.message),
      f.expected ? el("p", {class: "muted"}, `expected: ${f.expected}`) : null,
      f.found ? el("p", {class: "muted"}, `found: ${f.found}`) : null,
      el("div", {class: "row small"},
        el("button", {type: "button", class: "secondary", "aria-expanded": "false",
                      onclick: (e) => toggleRule(e.currentTarget, details, f.rule)}, `rule ${f.rule}`),
        stateIdx >= 0 ? el("button", {type: "button", class: "secondary", onclick: () => { showStep(stateIdx); $("#replay").scrollIntoView(); }},
          "show the turn in the replay") : null),
      details));
  });

  // the replay
  const jump = $("#jump");
  jump.replaceChildren(...g.result.states.map((s, j) =>
    el("option", {value: j}, (s.score ? `round ${s.round}: the score` : `round ${s.round}, turn ${s.turn} (${s.player})`) +
      (s.findings.length ? " ⚠" : ""))));
  $("#replay").hidden = !g.result.states.length;
  showStep(0);
  $("#single").hidden = false;
  $("#many").hidden = true;
  $("#single-h").setAttribute("tabindex", "-1");
  bringIntoView($("#single-h"));
}

// A view just drawn: its heading at the top of the window, and the focus on it.
function bringIntoView(heading) {
  heading.scrollIntoView({block: "start"});
  heading.focus({preventScroll: true});
}

function gotoFinding(k) {
  gotoLine(state.current.view.lineOf(state.current.result.report.findings[k]));
}

// Mark and focus line `ln` of the log shown, and name it in the URL.
function gotoLine(ln) {
  for (const e of document.querySelectorAll(".line.current")) e.classList.remove("current");
  const line = ln && document.getElementById(`L${ln}`);
  if (!line) return;
  line.classList.add("current");
  line.scrollIntoView({block: "center"});
  line.focus({preventScroll: true});
  // an audit's line keeps the audit in the URL: the permalink of that line
  const audit = state.current.audit;
  history.replaceState(null, "", audit ? `#audit=${encodeURIComponent(audit.id)}&line=${ln}` : `#L${ln}`);
}

function rule(id) {
  const game = (state.current && (state.current.game || state.current.result.game)) || games.fallback;
  const key = `${game} ${id}`;
  if (!state.rules.has(key)) {
    const q = `?game=${encodeURIComponent(game)}`;
    state.rules.set(key, fetch(`/v1/rules/${encodeURIComponent(id)}${q}`).then((r) => r.ok ? r.json() : null));
  }
  return state.rules.get(key);
}

async function toggleRule(btn, box, id) {
  const open = btn.getAttribute("aria-expanded") === "true";
  btn.setAttribute("aria-expanded", String(!open));
  box.hidden = open;
  if (open || box.childElementCount) return;
  const r = await rule(id);
  if (!r) { box.append(el("p", {}, `No rule ${id}.`)); return; }
  box.append(el("h4", {}, r.title), el("p", {}, r.text),
    r.why ? el("p", {class: "muted"}, `Why: ${r.why}`) : null,
    r.fix ? el("p", {}, `Fix: ${r.fix}`) : null,
    el("p", {class: "muted"}, "Sources:"),
    el("ul", {}, r.sources.map((s) => el("li", {}, `${s.ref} (${s.file}): ${s.part}`,
      s.quote_en && !s.part.includes(s.quote_en) ? el("div", {class: "muted", lang: "en"}, `English: ${s.quote_en}`) : null))));
}

// ---- the replay -------------------------------------------------------------------------
// The table after each turn is drawn by the log's game: a pack with a view of its own (capability
// `page`) ships a script that the server serves from the pack (`page_script` in GET /v1/games) and
// that registers it here, loaded for that game's logs only; any other game's states are shown by
// the generic view (its pack's key/value state). This file names no game.

const views = {loaded: new Map(), loading: new Map()};  // game -> its view (null: the generic one)

// Called by a pack's page script: `view.table(state, result)` gives the nodes that show one state.
function registerReplayView(game, view) {
  views.loaded.set(game, view);
}

// Parts a pack's view may draw with (its script draws the rest): a card chip by its code's first
// letter (R, G, B, Y, W: the colours the stylesheet knows; any other code is a card not shown), the
// piles' sizes, and the table of the players with the game's call column (`call`: its header, the
// seat's key and the words for each call state).
const CARD_COLOURS = {R: "red", G: "green", B: "blue", Y: "yellow", W: "wild"};

const replayParts = {
  card(code) {
    if (!/^[RGBYW]/.test(code)) return el("span", {class: "card back", role: "img", title: "a card not shown", "aria-label": "a face-down card"}, "");
    return el("span", {class: `card c-${code[0]}`, role: "img", "aria-label": `${CARD_COLOURS[code[0]]} ${code.slice(1)}`}, code);
  },
  piles(s) {
    return el("p", {class: "piles"}, "Draw pile: ", el("strong", {id: "draw-pile"}, s.draw_pile),
      " cards; discard pile: ", el("strong", {id: "discard-pile"}, s.discard_pile), " cards");
  },
  seats(s, result, call) {
    return el("div", {class: "scroll", tabindex: "0", role: "region", "aria-label": "The players after the turn"},
      el("table", {class: "seats"},
        el("caption", {}, "The players after the turn"),
        el("thead", {}, el("tr", {}, ["Player", "Hand", "Cards", call.header, "Total"].map((h) =>
          el("th", {scope: "col", class: h === "Cards" || h === "Total" ? "num" : null}, h)))),
        el("tbody", {}, result.players.map((p) => {
          const seat = s.seats[p];
          const said = seat[call.key];
          return el("tr", {class: p === s.player ? "on-turn" : null, "data-player": p},
            el("th", {scope: "row"}, p), el("td", {}, el("div", {class: "cards"}, seat.hand.map(replayParts.card))),
            el("td", {class: "num"}, seat.cards),
            el("td", {class: said ? `call-${said}` : null}, said ? call.text[said] : "–"),
            el("td", {class: "num"}, seat.total));
        }))));
  },
};

// The game a result is of (every replay answer names it; an audit and a checked log know it too).
function resultGame(g) {
  return g.result.game || g.result.report.game || g.game || (g.audit && g.audit.game) || games.fallback;
}

// The view of `game`: its pack's script loaded once (a promise of the view, null for the generic one).
function replayView(game) {
  if (views.loaded.has(game)) return Promise.resolve(views.loaded.get(game));
  if (!views.loading.has(game)) {
    const info = games.byName[game];
    const src = info && info.page_script;
    views.loading.set(game, !src ? Promise.resolve(null) : new Promise((ok) => {
      const script = el("script", {src, "data-game": game});
      script.addEventListener("load", () => ok(views.loaded.get(game) || null));
      script.addEventListener("error", () => ok(undefined));  // said in the table's place
      document.head.append(script);
    }).then((view) => { if (view !== undefined) views.loaded.set(game, view); return view; }));
  }
  return views.loading.get(game);
}

function whereText(s, j, n) {
  if (s.score) return `Round ${s.round}: the score, after the round's last turn (${j + 1} of ${n})`;
  return `Round ${s.round}, turn ${s.turn}: after ${s.player}'s turn` +
    (s.round_over ? " (the round is over)" : "") + ` (${j + 1} of ${n})`;
}

function showStep(j) {
  const g = state.current;
  const states = g.result.states;
  if (!states.length) { $("#table-view").replaceChildren(); $("#where").textContent = ""; return; }
  j = Math.max(0, Math.min(states.length - 1, j));
  state.step = j;
  const s = states[j];
  $("#jump").value = String(j);
  $("#prev-btn").disabled = $("#first-btn").disabled = j === 0;
  $("#next-btn").disabled = $("#last-btn").disabled = j === states.length - 1;
  for (const e of document.querySelectorAll(".line.turn")) e.classList.remove("turn");
  const range = g.view.rangeOf(s);
  if (range) for (let n = range[0]; n <= range[1]; n++) document.getElementById(`L${n}`)?.classList.add("turn");
  $("#where").textContent = whereText(s, j, states.length);
  showMoves(g, s);
  const game = resultGame(g);
  if (views.loaded.has(game)) drawTable(g, s, views.loaded.get(game));
  else replayView(game).then((view) => { if (state.current === g && state.step === j) drawTable(g, s, view); });
}

// The table after the turn (the game's view, or the generic one), the round's score at its end,
// and the turn's findings.
function drawTable(g, s, view) {
  const findings = s.findings.map((k) => g.result.report.findings[k]);
  const turnFindings = el("div", {class: "turn-findings"}, el("h4", {}, s.score ? "The score's findings" : "This turn's findings"),
    findings.length ? el("ul", {}, findings.map((f) => el("li", {class: f.severity},
      `${f.line ? "line " + f.line : "at " + (f.pointer || "/")}: ${f.severity}[${f.kind}] ${f.message}`))) :
      el("p", {class: "muted"}, "none"));
  let table;
  if (view === undefined) table = [el("p", {class: "muted"}, "The view of this game's table could not be loaded from the server.")];
  else if (view) table = view.table(s, g.result);
  else table = genericTable(g, s);
  $("#table-view").replaceChildren(...(s.score ? [roundScore(g, s)] : []), ...table, turnFindings);
}

// A round's end (a state with `score`): each player's score and running total, as the log writes
// them (its score and totals lines) and as the referee counts them.
function roundScore(g, s) {
  const sc = s.score;
  const cell = (v) => (v === null || v === undefined ? "–" : String(v));
  return el("div", {class: "scroll round-score", tabindex: "0", role: "region", "aria-labelledby": "score-h"},
    el("h4", {id: "score-h"}, `Round ${s.round} is over: the score`),
    el("table", {class: "scores", id: "round-score"},
      el("caption", {}, "The round's score and the running totals, as the log writes them and as the referee counts them"),
      el("thead", {}, el("tr", {}, ["Player", "Score (log)", "Score (referee)", "Total (log)", "Total (referee)"].map((h, k) =>
        el("th", {scope: "col", class: k ? "num" : null}, h)))),
      el("tbody", {}, g.result.players.map((p) => el("tr", {"data-player": p},
        el("th", {scope: "row"}, p),
        el("td", {class: "num"}, cell(sc.log_score && sc.log_score[p])),
        el("td", {class: "num"}, cell(sc.points && sc.points[p])),
        el("td", {class: "num"}, cell(sc.log_totals && sc.log_totals[p])),
        el("td", {class: "num"}, cell(sc.totals[p])))))),
    sc.lines && sc.lines.length ? el("p", {class: "muted"}, "The log's lines: ", el("code", {}, sc.lines.join(" / "))) :
      el("p", {class: "muted"}, "The log has no score line for this round."));
}

// A game without a view of its own (its pack answers the generic replay): the table as the pack
// states it, key by key, and the running totals.
function stateValue(v) {
  if (v === null || v === undefined) return "–";
  if (Array.isArray(v)) return v.map(stateValue).join(" ");
  if (typeof v === "object") return Object.entries(v).map(([k, x]) => `${k}: ${stateValue(x)}`).join("; ");
  return String(v);
}

function genericTable(g, s) {
  const totals = g.result.players.map((p) => `${p} ${g.result.totals[p] || 0}`).join("; ");
  return [
    el("div", {class: "scroll", tabindex: "0", role: "region", "aria-label": "The table after the turn"},
      el("table", {class: "seats", id: "generic-state"},
        el("caption", {}, "The table after the turn"),
        el("thead", {}, el("tr", {}, ["What", "State"].map((h) => el("th", {scope: "col"}, h)))),
        el("tbody", {}, Object.entries(s.state || {}).map(([k, v]) =>
          el("tr", {}, el("th", {scope: "row"}, k), el("td", {}, stateValue(v))))))),
    el("p", {class: "piles"}, "Totals at the end of the log: ", el("strong", {}, totals || "–")),
  ];
}

// The position after the selected turn (POST /v1/moves): its legal next lines, grouped by who
// chooses them, and why the line the log wrote next is illegal there, when it is. A text log of a
// game whose pack has a move generator (capability `moves`) only.
async function showMoves(g, s) {
  const box = $("#moves-view");
  box.replaceChildren();
  const info = games.byName[g.result.game || g.result.report.game];  // every report names its game
  const after = s.end_line || s.line;
  if (g.json || !after || !info || !(info.capabilities || []).includes("moves")) return;
  const lines = new TextDecoder().decode(g.bytes).split("\n");
  const next = lines.slice(after).find((ln) => ln.split("#")[0].trim());
  const query = new URLSearchParams(queryFor(g.name, info.name));
  query.set("after", String(after));
  query.set("max_moves", "60");
  if (next !== undefined) query.set("try", next.trim());
  let body;
  try {
    const r = await fetch("/v1/moves?" + query, {method: "POST", headers: {"Content-Type": "text/plain; charset=utf-8"}, body: g.bytes});
    body = await r.json();
    if (!r.ok) { box.replaceChildren(el("p", {class: "muted", id: "moves-none"}, `No legal lines here: ${body.detail}`)); return; }
  } catch (e) {
    box.replaceChildren(el("p", {class: "muted"}, "The legal lines could not be fetched: " + e));
    return;
  }
  if (state.current !== g || state.step !== stateIndex(g, s)) return;  // stepped on meanwhile
  const byActor = new Map();
  for (const m of body.moves) { if (!byActor.has(m.actor)) byActor.set(m.actor, []); byActor.get(m.actor).push(m); }
  const parts = [el("h4", {id: "moves-h"}, `Legal next lines (${body.moves_total})`)];
  for (const [actor, moves] of byActor) {
    parts.push(el("p", {class: "muted"}, actor === "chance" ? "chance (a card off the pile, a deal)" : actor === "table" ? "the table" : actor));
    parts.push(el("ul", {class: "moves", "data-actor": actor}, moves.map((m) =>
      el("li", {}, el("code", {}, m.line), m.chance && m.probability !== null && m.probability < 1 ? ` (p = ${m.probability.toFixed(3)})` : ""))));
  }
  if (body.moves_left_out) parts.push(el("p", {class: "muted"}, `and ${body.moves_left_out} more`));
  if (body.try && !body.try.legal) {
    const why = body.try.findings.length ? body.try.findings.map((f) => el("li", {class: f.severity},
      `${f.severity}[${f.kind}] ${f.message} (${f.rule})${f.deferred ? " (said once a later line arrives)" : ""}`)) :
      [el("li", {}, "it is not one of the legal lines")];
    parts.push(el("div", {id: "next-illegal", class: "turn-findings"},
      el("h4", {}, "The log's next line is illegal here: ", el("code", {}, body.try.line)), el("ul", {}, why)));
  } else if (body.try) {
    parts.push(el("p", {id: "next-legal", class: "muted"}, "The log's next line, ", el("code", {}, body.try.line), ", is legal here."));
  }
  box.replaceChildren(el("section", {class: "moves-pane", "aria-labelledby": "moves-h"}, ...parts));
}

function stateIndex(g, s) { return g.result.states.indexOf(s); }

// ---- wiring -----------------------------------------------------------------------------

document.addEventListener("DOMContentLoaded", () => {
  loadRulesets();
  $("#opt-game").addEventListener("change", (e) => { keepChoices(); showChooser(e.target.value); });
  $("#options-box").addEventListener("change", (e) => { if (e.target.id !== "opt-game") keepChoices(); });
  $("#log-text").addEventListener("input", () => {
    const text = $("#log-text").value;
    if (text.trim()) gameOf(new TextEncoder().encode(text)).then((g) => { keepChoices(); showChooser(g); });
  });
  $("#check-form").addEventListener("submit", submit);
  $("#files").addEventListener("change", (e) => choose(e.target.files));
  $("#folder").addEventListener("change", (e) => choose(Array.from(e.target.files).filter((f) => isLog(f.name))));
  $("#clear-btn").addEventListener("click", () => {
    $("#log-text").value = ""; $("#files").value = ""; $("#folder").value = ""; choose([]); say("");
    state.run++;  // a check under way is dropped
    $("#single").hidden = $("#many").hidden = true;
  });
  const drop = $("#drop");
  drop.addEventListener("dragover", (e) => { e.preventDefault(); drop.classList.add("over"); });
  drop.addEventListener("dragleave", () => drop.classList.remove("over"));
  drop.addEventListener("drop", async (e) => {
    e.preventDefault();
    drop.classList.remove("over");
    if (!e.dataTransfer) return;
    const files = await filesOfDrop(e.dataTransfer);
    if (files.length) {
      choose(files);
      $("#check-form").requestSubmit();
    }
  });
  for (const b of document.querySelectorAll("#games th button")) b.addEventListener("click", () => sortBy(b.dataset.key));
  $("#filter").addEventListener("input", renderMany);
  $("#verdict-filter").addEventListener("change", renderMany);
  $("#dl-csv").addEventListener("click", downloadCsv);
  $("#dl-json").addEventListener("click", downloadJson);
  $("#back-btn").addEventListener("click", () => {
    if (state.current && state.current.backTo) { location.hash = state.current.backTo; return; }
    $("#single").hidden = true; renderMany(); $("#many").hidden = false;
  });
  $("#first-btn").addEventListener("click", () => showStep(0));
  $("#prev-btn").addEventListener("click", () => showStep(state.step - 1));
  $("#next-btn").addEventListener("click", () => showStep(state.step + 1));
  $("#last-btn").addEventListener("click", () => showStep(Infinity));
  $("#jump").addEventListener("change", (e) => showStep(Number(e.target.value)));
  document.addEventListener("keydown", (e) => {
    if ($("#single").hidden || !state.current || e.altKey || e.ctrlKey || e.metaKey) return;
    if (e.target.closest("input, textarea, select")) return;
    const moves = {ArrowRight: state.step + 1, ArrowLeft: state.step - 1, Home: 0, End: Infinity};
    if (e.key in moves) { e.preventDefault(); showStep(moves[e.key]); }
  });
});
