// The organiser's events on the page: an event's view (standings, every audit with its verdict),
// an audit's view (the log as kept, its findings, the replay) and the upload of a folder of logs
// into an event, each file its own audit. Plain JavaScript over /v1/events and /v1/audits; it
// shares app.js's helpers ($, el, plural, state, looksJson, isLog, filesOfDrop, showGame, gotoLine).
//
// Every view is named by the URL's fragment, so that its address is its permalink:
//   #event=ID[&q=TEXT][&verdict=V][&sort=[-]KEY][&count_illegal=true]   an event, as filtered and sorted
//   #audit=ID[&line=N]                                                  an audit, at a line of its log
// Reads are public by id; creating an event and uploading need the organiser's bearer token.
"use strict";

const ev = {
  id: null, event: null, audits: [], standings: [],
  sortKey: null, sortDir: 1,
  pending: [],        // files chosen for the upload, not yet sent
  back: null,         // the event view's fragment, to come back to from one of its audits
};
const UPLOADERS = 4;  // requests in flight during an upload
const RETRIES = 3;    // a 503 (the store or the checkers away) is tried again after its Retry-After

const enc = encodeURIComponent;
const sayEvent = (msg) => { $("#event-status").textContent = msg; };
const sleep = (ms) => new Promise((ok) => setTimeout(ok, ms));
// A stored time (ISO 8601 in UTC, to the microsecond) for people: "2026-12-01 10:00:00 UTC".
const when = (iso) => iso ? iso.replace("T", " ").replace(/\.\d*/, "").replace(/Z$/, "") + " UTC" : "–";

// A read of the API: the JSON body, or an Error carrying the problem's status and detail.
async function getJson(path) {
  const r = await fetch(path);
  const body = await r.json().catch(() => null);
  if (!r.ok) {
    const e = new Error(body && body.detail ? body.detail : `HTTP ${r.status}`);
    e.status = r.status;
    throw e;
  }
  return body;
}

function authHeaders() {
  const token = $("#token").value.trim();
  return token ? {Authorization: `Bearer ${token}`} : {};
}

// ---- the routes: the fragment names the view ---------------------------------------------

function route() {
  const q = new URLSearchParams(location.hash.slice(1));
  if (q.get("audit")) showAudit(q.get("audit"), q);
  else if (q.get("event")) showEvent(q.get("event"), q);
}

function eventFragment() {
  const q = new URLSearchParams({event: ev.id});
  const text = $("#event-filter").value.trim(), verdict = $("#event-verdict").value;
  if (text) q.set("q", text);
  if (verdict) q.set("verdict", verdict);
  if (ev.sortKey) q.set("sort", (ev.sortDir < 0 ? "-" : "") + ev.sortKey);
  if ($("#count-illegal").checked) q.set("count_illegal", "true");
  return "#" + q;
}

// The view changed in place (a filter, a sort): the URL follows, without a new history entry.
function followView() {
  const h = eventFragment();
  if (location.hash !== h) history.replaceState(null, "", h);
  $("#event-link").setAttribute("href", h);
  ev.back = h;
}

// ---- an event -----------------------------------------------------------------------------

async function showEvent(id, q) {
  ev.id = id;
  $("#event-filter").value = q.get("q") || "";
  $("#event-verdict").value = q.get("verdict") || "";
  const sort = q.get("sort") || "";
  ev.sortKey = sort.replace(/^-/, "") || null;
  ev.sortDir = sort.startsWith("-") ? -1 : 1;
  $("#count-illegal").checked = q.get("count_illegal") === "true";
  sayEvent("Opening the event…");
  try {
    await loadEvent();
  } catch (e) {
    sayEvent(e.status === 404 ? `No event ${id} here: ${e.message}` : `Could not open the event: ${e.message}`);
    return;
  }
  sayEvent("");
  $("#single").hidden = $("#many").hidden = true;
  $("#event").hidden = false;
  $("#event-h").focus();
}

async function loadEvent() {
  const base = `/v1/events/${enc(ev.id)}`;
  const [event, games] = await Promise.all([getJson(base), getJson(`${base}/games`), loadStandings()]);
  ev.event = event;
  ev.audits = games.games;
  const n = event.games;
  $("#event-h").textContent = event.name;
  const aliases = Object.entries(event.aliases || {}).map(([a, p]) => `${a} as ${p}`);
  const holds = event.mixed ? "a mixed event, one table per game" :
    event.game ? `${gameName(event.game)} logs` : "its first log sets its game";
  $("#event-meta").textContent = `${n} game${n === 1 ? "" : "s"} (${holds}); created ${when(event.created)}; id ${event.id}` +
    (aliases.length ? `; counted as another player: ${aliases.join(", ")}` : "");
  renderAudits();
}

// A game's name for people (DOS, UNO Duo), as the page's list of games gives it (app.js).
function gameName(game) {
  return (games.byName[game] && games.byName[game].title) || game || "–";
}

// How a table's points rank, as the service states it: its game's rule (its pack's) and which
// points come first. Each game has its own table: a mixed event's games are never summed.
function tableRule(t) {
  const first = t.points_better === "lower" ? "fewer points rank first" : "more points rank first";
  return `${t.title}${t.summary ? `: ${t.summary}` : ""}; ${first}`;
}

function standingsTable(t) {
  return el("table", {},
    el("caption", {}, `${t.title}, in rank order (${tableRule(t)})`),
    el("thead", {}, el("tr", {}, ["Rank", "Player", "Games", "Wins", "Rounds won", "Points", "Illegal"].map((h, k) =>
      el("th", {scope: "col", ...(k === 1 ? {} : {class: "num"})}, h)))),
    el("tbody", {}, t.standings.map((s, k) => el("tr", {},
      el("td", {class: "num"}, k + 1), el("th", {scope: "row"}, s.player),
      ["games", "wins", "rounds_won", "points", "illegal"].map((c) => el("td", {class: "num"}, s[c]))))));
}

async function loadStandings() {
  const count = $("#count-illegal").checked;
  const data = await getJson(`/v1/events/${enc(ev.id)}/standings` + (count ? "?count_illegal=true" : ""));
  ev.standings = data.standings;
  const tables = data.tables || [];
  $("#standings-order").textContent = "Ranked by wins, then the better points, then the fewest illegal games. " +
    (tables.length > 1 ? "One table per game, each ranked by its own rule. " : "") +
    tables.map((t) => `Points: ${tableRule(t)}. `).join("") +
    (count ? "Illegal games count in games, wins, rounds won and points." :
      "Illegal games count only in Illegal (check the box to count them in full).");
  $("#standings").replaceChildren(...(tables.length ? tables.map(standingsTable) :
    [el("p", {class: "muted"}, "No games with a result yet.")]));
}

function outcome(a) {
  const r = a.result;
  if (!r) return "–";
  return r.winner ? `${r.winner} won` : r.finished ? "no winner" : "unfinished";
}

function auditRow(a) {
  const findings = (a.report && a.report.findings) || [];
  return {
    id: a.id, name: a.name, game: gameName(a.game), verdict: a.verdict, outcome: outcome(a), submitted: a.submitted,
    players: a.result ? a.result.players.join(" ") : "",
    errors: findings.filter((f) => f.severity === "error").length,
    warnings: findings.filter((f) => f.severity === "warning").length,
  };
}

function shownAudits() {
  const text = $("#event-filter").value.trim().toLowerCase();
  const verdict = $("#event-verdict").value;
  const list = ev.audits.map((a, i) => ({i, r: auditRow(a)}))
    .filter(({r}) => (!verdict || r.verdict === verdict) &&
                     (!text || r.name.toLowerCase().includes(text) || r.players.toLowerCase().includes(text)));
  if (ev.sortKey) {
    const k = ev.sortKey, d = ev.sortDir;
    list.sort((a, b) => {
      const x = a.r[k], y = b.r[k];
      const c = typeof x === "number" ? x - y : String(x).localeCompare(String(y), undefined, {numeric: true});
      return c * d || a.i - b.i;
    });
  }
  return list;
}

function renderAudits() {
  const list = shownAudits();
  $("#event-games tbody").replaceChildren(...list.map(({r}) => el("tr", {"data-verdict": r.verdict, "data-audit": r.id},
    el("th", {scope: "row"}, el("a", {href: `#audit=${enc(r.id)}`}, r.name)),
    el("td", {}, r.game),
    el("td", {}, el("span", {class: `badge v-${r.verdict}`}, r.verdict)),
    el("td", {}, r.outcome), el("td", {}, r.players),
    el("td", {class: "num"}, r.errors), el("td", {class: "num"}, r.warnings),
    el("td", {}, when(r.submitted)))));
  $("#event-games-h").textContent = `Games (${list.length} of ${ev.audits.length} shown)`;
  for (const th of document.querySelectorAll("#event-games th[aria-sort]")) {
    const k = th.querySelector("button").dataset.key;
    th.setAttribute("aria-sort", k === ev.sortKey ? (ev.sortDir > 0 ? "ascending" : "descending") : "none");
  }
  followView();
}

function sortAudits(key) {
  if (ev.sortKey === key) ev.sortDir = -ev.sortDir;
  else { ev.sortKey = key; ev.sortDir = ["errors", "warnings"].includes(key) ? -1 : 1; }
  renderAudits();
}

async function createEvent(e) {
  e.preventDefault();
  const name = $("#event-name").value.trim();
  if (!name) { sayEvent("Name the event first."); return; }
  const r = await fetch("/v1/events", {
    method: "POST", headers: {"Content-Type": "application/json", ...authHeaders()},
    body: JSON.stringify({name, mixed: $("#event-mixed").checked}),
  });
  const body = await r.json().catch(() => null);
  if (r.status !== 201) { sayEvent(`The event was not created (${r.status}): ${body && body.detail}`); return; }
  $("#event-name").value = "";
  $("#event-mixed").checked = false;
  location.hash = `#event=${enc(body.id)}`;  // the hashchange opens it
}

function openEvent(e) {
  e.preventDefault();
  const ref = $("#event-ref").value.trim();
  const id = (ref.match(/[#&?]event=([^&#]+)/) || [null, ref])[1];
  if (!id) { sayEvent("Give the event's id, or paste its link."); return; }
  const h = `#event=${id}`;
  if (location.hash === h) route(); else location.hash = h;
}

// ---- the upload: each file its own audit, each with its answer --------------------------

// The audit's name: where the file was in the folder chosen or dropped, the folder's own name
// left out, as `dosverify event add EVENT DIR` names it.
function uploadName(f) {
  const path = f.relPath || f.webkitRelativePath || "";
  const parts = path.split("/");
  return parts.length > 1 ? parts.slice(1).join("/") : f.name;
}

function chooseUpload(files) {
  ev.pending = Array.from(files).filter((f) => isLog(f.name))
    .sort((a, b) => uploadName(a).localeCompare(uploadName(b), undefined, {numeric: true}));
  const names = ev.pending.map(uploadName);
  $("#event-chosen").textContent = names.length
    ? `${plural(names.length, "file")} chosen: ${names.slice(0, 5).join(", ")}${names.length > 5 ? ", …" : ""}` : "";
}

async function postLog(name, bytes) {
  const url = `/v1/events/${enc(ev.id)}/games?` + new URLSearchParams({name});
  const headers = {"Content-Type": looksJson(bytes) ? "application/json" : "text/plain; charset=utf-8", ...authHeaders()};
  for (let attempt = 0; ; attempt++) {
    const r = await fetch(url, {method: "POST", headers, body: bytes});
    // the same bytes again are the same audit (200), so that trying again cannot make a second one
    if (r.status !== 503 || attempt >= RETRIES) return {status: r.status, body: await r.json().catch(() => null)};
    await sleep(1000 * Math.min(30, Number(r.headers.get("Retry-After")) || 5));
  }
}

function uploadItem(li, name, status, body) {
  li.dataset.status = String(status);
  if (status === 201 || status === 200) {
    li.className = `upload v-${body.verdict}`;
    li.replaceChildren(el("a", {href: `#audit=${enc(body.id)}`}, name), ": ",
      el("span", {class: `badge v-${body.verdict}`}, body.verdict), " ",
      status === 201 ? "a new audit" : "already in the event (the same bytes): the same audit");
  } else {
    li.className = "upload refused";
    li.replaceChildren(el("strong", {}, name), `: refused (${status}): ${(body && body.detail) || "no answer"}`);
  }
}

async function upload() {
  if (!ev.id) return;
  const files = ev.pending;
  if (!files.length) { $("#upload-status").textContent = "Choose or drop the logs to upload first."; return; }
  if (!$("#token").value.trim()) { $("#upload-status").textContent = "Uploading needs the organiser's token (above)."; return; }
  ev.pending = [];
  $("#upload-btn").disabled = true;
  const items = files.map((f) => ({f, name: uploadName(f), li: el("li", {class: "upload"}, `${uploadName(f)}: waiting`)}));
  $("#upload-results").replaceChildren(...items.map((it) => it.li));
  const counts = {201: 0, 200: 0, refused: 0};
  let next = 0, done = 0;
  async function worker() {
    while (next < items.length) {
      const it = items[next++];
      let status = 0, body = null;
      try {
        ({status, body} = await postLog(it.name, new Uint8Array(await it.f.arrayBuffer())));
      } catch (e) { body = {detail: String(e.message || e)}; }
      uploadItem(it.li, it.name, status, body);
      counts[status === 201 || status === 200 ? status : "refused"]++;
      done++;
      $("#upload-status").textContent = `Uploaded ${done} of ${items.length}…`;
    }
  }
  await Promise.all(Array.from({length: UPLOADERS}, worker));
  $("#upload-btn").disabled = false;
  $("#event-chosen").textContent = "";
  $("#event-folder").value = $("#event-files").value = "";  // the same folder chosen again is a new choice
  $("#upload-status").textContent = `Uploaded ${plural(items.length, "file")}: ${plural(counts[201], "new audit")}, ` +
    `${counts[200]} already in the event, ${counts.refused} refused.`;
  try { await loadEvent(); } catch (e) { sayEvent(`Could not read the event again: ${e.message}`); }
}

// ---- an audit: the log as kept, its findings, the replay --------------------------------

async function replayAudit(audit, bytes, json) {
  try {
    const r = await fetch("/v1/replay?" + new URLSearchParams({name: audit.name}), {
      method: "POST", headers: {"Content-Type": json ? "application/json" : "text/plain; charset=utf-8"}, body: bytes,
    });
    const body = await r.json();
    const rep = body.report;
    // the replay judges under the spec installed now: its turns go with the kept report while they agree
    if (r.ok && rep.verdict === audit.verdict && rep.findings.length === audit.report.findings.length) {
      return {result: body, note: ""};
    }
    return {result: null, note: r.ok ? " The spec installed now judges it otherwise: no replay is shown." : ""};
  } catch (e) {
    return {result: null, note: ""};
  }
}

async function showAudit(id, q) {
  sayEvent("Opening the audit…");
  let audit, bytes;
  try {
    audit = await getJson(`/v1/audits/${enc(id)}`);
    const r = await fetch(`/v1/audits/${enc(id)}/log`);
    if (!r.ok) throw new Error(`the log: HTTP ${r.status}`);
    bytes = new Uint8Array(await r.arrayBuffer());
  } catch (e) {
    sayEvent(e.status === 404 ? `No audit ${id} here.` : `Could not open the audit: ${e.message}`);
    return;
  }
  sayEvent("");
  const json = looksJson(bytes);
  const {result, note} = await replayAudit(audit, bytes, json);
  const shown = result || {report: audit.report, players: audit.result ? audit.result.players : [], totals: {}, states: []};
  const back = ev.back && ev.id === audit.event ? ev.back : `#event=${enc(audit.event)}`;
  showGame({name: audit.name, bytes, json, result: shown, audit, backTo: back}, true);
  const meta = $("#audit-meta");
  meta.replaceChildren(`Audit ${audit.id} of the event `, el("a", {href: back}, ev.event && ev.id === audit.event ? ev.event.name : audit.event),
    `: a ${gameName(audit.game)} log, submitted ${when(audit.submitted)}, judged ${when(audit.judged)} under spec ${audit.spec_version}; its result: ${outcome(audit)}. `,
    el("a", {href: `/v1/audits/${enc(audit.id)}/log`}, "The log as submitted"),
    ` (SHA-256 ${audit.sha256}); `, el("a", {href: `#audit=${enc(audit.id)}`}, "permalink to this audit"), "." + note);
  const line = Number(q.get("line"));
  if (line) gotoLine(line);
}

// ---- wiring -----------------------------------------------------------------------------

document.addEventListener("DOMContentLoaded", () => {
  $("#open-form").addEventListener("submit", openEvent);
  $("#create-form").addEventListener("submit", createEvent);
  $("#count-illegal").addEventListener("change", async () => {
    try { await loadStandings(); } catch (e) { sayEvent(`Could not read the standings: ${e.message}`); }
    followView();
  });
  $("#event-filter").addEventListener("input", renderAudits);
  $("#event-verdict").addEventListener("change", renderAudits);
  for (const b of document.querySelectorAll("#event-games th button")) b.addEventListener("click", () => sortAudits(b.dataset.key));
  $("#event-folder").addEventListener("change", (e) => chooseUpload(e.target.files));
  $("#event-files").addEventListener("change", (e) => chooseUpload(e.target.files));
  $("#upload-btn").addEventListener("click", upload);
  const drop = $("#event-drop");
  drop.addEventListener("dragover", (e) => { e.preventDefault(); drop.classList.add("over"); });
  drop.addEventListener("dragleave", () => drop.classList.remove("over"));
  drop.addEventListener("drop", async (e) => {
    e.preventDefault();
    drop.classList.remove("over");
    if (!e.dataTransfer) return;
    chooseUpload(await filesOfDrop(e.dataTransfer));
    await upload();  // a drop is the organiser's go, as on the check form
  });
  window.addEventListener("hashchange", route);
  route();
});
