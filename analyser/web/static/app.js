// rikken-analyser's page: the form's state lives in the URL; an analysis is a job on the
// server whose progress arrives as server-sent events (docs/web.md).
"use strict";

const T = {
  nl: {
    lang: "Taal", game: "Spel", hand: "Hand", seat: "Plaats", rules: "Regels",
    switches: "Schakelaars", turned: "Gedraaide kaart", auction: "Biedingen tot nu",
    form: "Vorm", variant: "Variant", role: "Rol", deals: "Spellen", seed: "Seed",
    explain: "misère: waarom mislukt", go: "Analyseer", cancel: "Stop",
    text: "Tekst zoals de opdrachtregel hem schrijft", again: "Opnieuw:",
    bid: "Bod", p: "P(maak)", ci: "95%-interval", score: "Verwachte score",
    est: "schatting", dd: "DD", real: "echt spel", ddTitle: "double-dummy: alle handen open",
    tricks: "Slagen", opening: "Openingsbod", yes: "ja", no: "nee",
    rec: "Advies", compete: "Hoogste bod om tegen te bieden", none: "passen",
    queued: "wacht op een vrije plaats", running: "bezig", done: "klaar",
    stopped: "gestopt: de cijfers van de afgeronde stappen",
    timed: "tijdslimiet bereikt: de cijfers van de afgeronde stappen",
    failed: "fout", cards: "kaarten", decision: "Beslissing", call: "Bod",
    forced: "Waarom de gesloten misère mislukt: de kaart waarmee de speler zijn eerste slag moet maken",
    card: "Kaart", share: "Aandeel", holes: "Gaten per kleur", seatN: "Plaats",
  },
  en: {
    lang: "Language", game: "Game", hand: "Hand", seat: "Seat", rules: "Rules",
    switches: "Switches", turned: "Turned card", auction: "Calls so far",
    form: "Form", variant: "Variant", role: "Role", deals: "Deals", seed: "Seed",
    explain: "misère: why it fails", go: "Analyse", cancel: "Stop",
    text: "Text as the command line writes it", again: "Again:",
    bid: "Bid", p: "P(make)", ci: "95% interval", score: "Expected score",
    est: "estimate", dd: "DD", real: "real play", ddTitle: "double-dummy: every hand seen",
    tricks: "Tricks", opening: "Opening bid", yes: "yes", no: "no",
    rec: "Recommendation", compete: "Highest bid worth competing to", none: "pass",
    queued: "waiting for a free place", running: "running", done: "done",
    stopped: "stopped: the figures of the steps finished",
    timed: "time limit reached: the figures of the steps finished",
    failed: "error", cards: "cards", decision: "Decision", call: "Call",
    forced: "Why the closed misère fails: the card the declarer is forced to win his first trick with",
    card: "Card", share: "Share", holes: "Holes per suit", seatN: "Seat",
  },
};
const SUITS = [["♠", "S"], ["♥", "H"], ["♦", "D"], ["♣", "C"]];
const RANKS = { nl: ["A", "H", "V", "B", "10", "9", "8", "7", "6", "5", "4", "3", "2"],
                en: ["A", "K", "Q", "J", "T", "9", "8", "7", "6", "5", "4", "3", "2"] };
const CODE_RANKS = ["A", "K", "Q", "J", "T", "9", "8", "7", "6", "5", "4", "3", "2"];
// the form's fields that go into the URL, by their query name
const FIELDS = ["game", "hand", "seat", "rules", "turned", "auction", "form", "variant",
                "elder", "deals", "seed", "lang"];
const DEFAULTS = { game: "rikken", seat: "1", rules: "book", form: "5", variant: "amsterdam",
                   elder: "elder", lang: "nl" };
const $ = (id) => document.getElementById(id);
let job = null;       // the running job's id
let source = null;    // its event stream
let chosen = new Set(); // card codes clicked in the grid

function lang() { return $("lang").value; }
function t(key) { return T[lang()][key] || key; }
function esc(s) { return String(s).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`); }
// a card code of the JSON (suit letter, English rank: "HT") as players write it
function card(code) {
  if (!code) return "";
  const suit = SUITS.find(([, letter]) => letter === code[0]);
  const i = CODE_RANKS.indexOf(code.slice(1));
  return (suit ? suit[0] : code[0]) + (i < 0 ? code.slice(1) : RANKS[lang()][i]);
}
function suit(letter) { const s = SUITS.find(([, l]) => l === letter); return s ? s[0] : letter || ""; }
function pct(x) { return x === null || x === undefined ? "–" : (100 * x).toFixed(1) + "%"; }

function labels() {
  document.documentElement.lang = lang();
  document.querySelectorAll("[data-t]").forEach((el) => { el.textContent = t(el.dataset.t); });
}

function showGame() {
  const game = $("game").value;
  document.querySelectorAll("[data-games]").forEach((el) => {
    const on = el.dataset.games.split(" ").includes(game);
    el.hidden = !on;
    if (el.tagName === "OPTION") el.disabled = !on;
  });
  if (game !== "rikken" && $("seat").value === "all") $("seat").value = "1";
}

// the form as query parameters: only what differs from the command's defaults
function state() {
  const game = $("game").value;
  const rules = $("rules-base").value + ($("switches").value.trim() ? ":" + $("switches").value.trim() : "");
  const values = { game, hand: $("hand").value, seat: $("seat").value, rules,
    turned: $("turned").value, auction: $("auction").value, form: $("form-pts").value,
    variant: $("variant").value, elder: $("elder").value, deals: $("deals").value,
    seed: $("seed").value, lang: lang() };
  const applies = { seat: ["rikken", "whist", "klaverjas"], rules: ["rikken"],
    turned: ["rikken", "whist"], auction: ["rikken"], form: ["whist"],
    variant: ["klaverjas"], elder: ["piket"], lang: ["rikken", "klaverjas"] };
  const q = new URLSearchParams();
  for (const k of FIELDS) {
    const v = (values[k] || "").trim();
    if (!v || (applies[k] && !applies[k].includes(game))) continue;
    if (v === DEFAULTS[k] && k !== "elder") continue;
    q.set(k, v);
  }
  return q;
}

function load(q) {
  const set = (id, v) => { if (v !== null) $(id).value = v; };
  set("game", q.get("game") || "rikken");
  set("hand", q.get("hand"));
  set("seat", q.get("seat") || "1");
  const rules = q.get("rules") || "book";
  set("rules-base", rules.split(":")[0]);
  set("switches", rules.includes(":") ? rules.slice(rules.indexOf(":") + 1) : "");
  set("turned", q.get("turned"));
  set("auction", q.get("auction"));
  set("form-pts", q.get("form") || "5");
  set("variant", q.get("variant") || "amsterdam");
  set("elder", q.get("elder") || "elder");
  set("deals", q.get("deals"));
  set("seed", q.get("seed"));
  set("lang", q.get("lang") || "nl");
}

function grid() {
  const g = $("grid");
  g.innerHTML = "";
  SUITS.forEach(([sym, letter]) => {
    const s = document.createElement("span");
    s.className = "suit" + (letter === "H" || letter === "D" ? " red" : "");
    s.textContent = sym;
    g.appendChild(s);
    RANKS[lang()].forEach((r, i) => {
      const b = document.createElement("button");
      const code = letter + CODE_RANKS[i];
      b.type = "button";
      b.textContent = r;
      b.dataset.card = code;
      b.className = (chosen.has(code) ? "on" : "") + (letter === "H" || letter === "D" ? " red" : "");
      b.addEventListener("click", () => {
        chosen.has(code) ? chosen.delete(code) : chosen.add(code);
        $("hand").value = handText();
        grid();
        count();
      });
      g.appendChild(b);
    });
  });
}

function handText() {
  return SUITS.map(([sym, letter]) => {
    const ranks = CODE_RANKS.map((r, i) => (chosen.has(letter + r) ? RANKS[lang()][i] : ""));
    const text = ranks.join("");
    return text ? sym + text : "";
  }).filter(Boolean).join(" ");
}

function count() { $("count").textContent = chosen.size ? `${chosen.size} ${t("cards")}` : ""; }

// the typed hand, read by the server as the command line reads it, shown in the grid
async function readHand() {
  const text = $("hand").value.trim();
  if (!text) { chosen = new Set(); grid(); count(); return; }
  const r = await fetch("/api/hand?" + new URLSearchParams({ hand: text }));
  if (r.ok) { chosen = new Set((await r.json()).cards); grid(); count(); error(""); }
}

function error(message) { $("error").hidden = !message; $("error").textContent = message; }

function busy(on) { $("go").disabled = on; $("cancel").disabled = !on; $("progress").hidden = !on; }

async function start(command, q) {
  const params = new URLSearchParams(q);
  params.set("command", command);
  const r = await fetch("/api/jobs?" + params, { method: "POST" });
  const body = await r.json();
  if (!r.ok) { error(body.error); busy(false); return null; }
  return body;
}

async function run() {
  error("");
  if (source) source.close();
  const q = state();
  const created = await start("analyse", q);
  if (!created) return;
  q.set("seed", created.seed);
  $("seed").value = created.seed;
  history.replaceState(null, "", "/?" + q);
  $("permalink").href = "/?" + q;
  $("permalink").textContent = location.origin + "/?" + q;
  $("answer").hidden = true;
  $("misere").hidden = true;
  follow(created, (snap) => {
    answer(snap);
    const game = $("game").value;
    if (snap.status === "done" && game === "rikken" && $("explain").checked
        && $("seat").value !== "all" && !$("auction").value.trim()) misere(q);
  });
}

function follow(created, done) {
  job = created.id;
  busy(true);
  progress(created);
  source = new EventSource(`/api/jobs/${created.id}/events`);
  source.addEventListener("progress", (e) => progress(JSON.parse(e.data)));
  source.addEventListener("end", (e) => {
    source.close();
    busy(false);
    job = null;
    done(JSON.parse(e.data));
  });
}

function progress(snap) {
  const p = snap.progress || {};
  let text = t(snap.status);
  if (p.deals !== undefined) {
    text += ` — ${p.label}: ${p.deals} / ~${p.expected} (max ${p.limit})`;
    $("progress").max = p.expected; $("progress").value = p.deals;
  } else if (p.label) {
    text += ` — ${p.label}: ${p.done}/${p.total}`;
    $("progress").max = p.total; $("progress").value = p.done;
  } else {
    $("progress").removeAttribute("value");
  }
  $("status").textContent = text;
}

function answer(snap) {
  $("status").textContent = t(snap.status);
  if (snap.status === "failed") { error(snap.error); return; }
  const res = snap.result;
  const note = snap.status === "stopped" ? t(snap.timed_out ? "timed" : "stopped")
    + (snap.missing ? ` (${snap.missing})` : "") : "";
  $("stopped").hidden = !note;
  $("stopped").textContent = note;
  if (!res) return;
  $("answer").hidden = false;
  $("table-text").textContent = res.table;
  $("command").textContent = res.command_line;
  $("tables").innerHTML = render(res.json, $("game").value);
}

function render(json, game, later = false) {
  // --seat all: one table per seat; the first seat's recommendation keeps the page's id
  if (Array.isArray(json)) return json.map((a, i) => `<h3>${t("seatN")} ${a.seat}</h3>` + render(a, game, i > 0)).join("");
  if (game === "rikken") return rikken(json, later);
  if (game === "klaverjas") return klaverjas(json);
  if (game === "whist") return whist(json);
  return piket(json);
}

function bar(p, lo, hi) {
  const w = (x) => (100 * Math.max(0, Math.min(1, x))).toFixed(1);
  return `<div class="bar" title="${pct(lo)} – ${pct(hi)}"><div class="fill" style="width:${w(p)}%"></div>`
    + `<div class="ci" style="left:${w(lo)}%;width:${(w(hi) - w(lo)).toFixed(1)}%"></div></div>`;
}

function hist(counts) {
  if (!counts) return "";
  const max = Math.max(...counts, 1);
  const rects = counts.map((c, i) => `<rect x="${i * 6}" y="${24 - (22 * c) / max}" width="5" height="${(22 * c) / max}"><title>${i}: ${c}</title></rect>`);
  return `<svg class="hist" width="${counts.length * 6}" height="24" role="img" aria-label="${t("tricks")}">${rects.join("")}</svg>`;
}

function rikken(a, later = false) {
  const rec = a.recommended_opening;
  // the headline (real play where the calibration covers the bid) and the double-dummy figure
  const est = (b) => b.estimate === "double-dummy" ? t("dd") : t("real");
  const rows = a.bids.map((b) => `<tr data-bid="${esc(b.bid)}" data-contract="${esc(b.contract)}" data-p="${b.p_make}"`
    + ` data-ci-low="${b.ci_low}" data-ci-high="${b.ci_high}" data-estimate="${esc(b.estimate)}" data-p-dd="${b.p_make_dd}"`
    + `${b.contract === rec ? ' class="recommended"' : ""}>`
    + `<td>${esc(b.contract)}${b.trump ? " " + suit(b.trump) : ""}${b.called ? " " + esc(card(b.called)) : ""}</td>`
    + `<td>${bar(b.p_make, b.ci_low, b.ci_high)}</td><td class="num">${pct(b.p_make)}</td>`
    + `<td class="num">${pct(b.ci_low)} – ${pct(b.ci_high)}</td>`
    + `<td title="${esc(b.real_play_note || "")}">${est(b)}</td><td class="num" title="${t("ddTitle")}">${pct(b.p_make_dd)}</td>`
    + `<td class="num">${b.expected_score === null ? "–" : b.expected_score.toFixed(2)}</td>`
    + `<td>${hist(b.tricks_hist)}</td><td>${b.opening_legal ? t("yes") : t("no")}</td></tr>`);
  let out = `<p class="recommendation"${later ? "" : ' id="recommendation"'} data-seat="${a.seat}" data-bid="${esc(rec || "")}">${t("rec")}: <b>${esc(rec || t("none"))}</b>`
    + (a.highest_competitive ? ` · ${t("compete")}: <b>${esc(a.highest_competitive)}</b>` : "") + "</p>"
    + `<table class="bids"><thead><tr><th>${t("bid")}</th><th colspan="2">${t("p")}</th><th>${t("ci")}</th>`
    + `<th>${t("est")}</th><th title="${t("ddTitle")}">${t("dd")} %</th>`
    + `<th>${t("score")}</th><th>${t("tricks")}</th><th>${t("opening")}</th></tr></thead><tbody>${rows.join("")}</tbody></table>`;
  if (a.decision) {
    const d = a.decision.map((c) => `<tr data-call="${esc(c.call)}"><td>${esc(c.call)}</td><td class="num">${Number(c.expected_score).toFixed(2)}</td></tr>`);
    out += `<h3>${t("decision")}</h3><table><tr><th>${t("call")}</th><th>${t("score")}</th></tr>${d.join("")}</table>`;
  }
  if (a.notes && a.notes.length) out += "<ul class=\"muted\">" + a.notes.map((n) => `<li>${esc(n)}</li>`).join("") + "</ul>";
  return out;
}

function klaverjas(a) {
  const rows = a.trumps.map((x) => `<tr data-trump="${esc(x.trump)}" data-p="${x.p_not_nat}"><td>${suit(x.trump)}</td>`
    + `<td>${bar(x.p_not_nat, x.ci_low, x.ci_high)}</td><td class="num">${pct(x.p_not_nat)}</td>`
    + `<td class="num">${x.expected_score === undefined ? "" : Number(x.expected_score).toFixed(1)}</td></tr>`);
  return `<p class="recommendation" id="recommendation" data-bid="${esc(a.recommended_trump)}">${t("rec")}: <b>${suit(a.recommended_trump)}</b></p>`
    + `<table><tr><th>troef</th><th colspan="2">P(niet nat)</th><th>${t("score")}</th></tr>${rows.join("")}</table>`;
}

function whist(a) {
  return `<p class="recommendation" id="recommendation" data-p="${a.p_game}">P(game): <b>${pct(a.p_game)}</b></p>`
    + `<table><tr><td>P(game)</td><td>${bar(a.p_game, a.ci_low, a.ci_high)}</td><td class="num">${pct(a.p_game)}</td></tr>`
    + `<tr><td>${t("tricks")}</td><td>${hist(a.tricks_hist)}</td><td class="num">${Number(a.mean_tricks).toFixed(2)}</td></tr></table>`;
}

function piket(a) {
  const rows = (a.candidates || []).slice(0, 10).map((c) => `<tr><td>${esc(c.discard)}</td>`
    + `<td class="num">${c.expected_score === undefined ? "" : Number(c.expected_score).toFixed(2)}</td></tr>`);
  return `<table><tr><th>discard</th><th>${t("score")}</th></tr>${rows.join("")}</table>`;
}

async function misere(q) {
  const m = new URLSearchParams();
  for (const k of ["hand", "seat", "rules", "turned", "deals", "seed", "lang"]) if (q.get(k)) m.set(k, q.get(k));
  const created = await start("misere", m);
  if (!created) return;
  follow(created, (snap) => {
    $("status").textContent = t(snap.status);
    if (!snap.result) return;
    const a = snap.result.json;
    const forced = (a.forced || []).map((f) => `<tr data-card="${esc(f.card)}"><td>${esc(card(f.card))}</td><td class="num">${f.deals}</td><td class="num">${pct(f.share)}</td></tr>`);
    const holes = (a.holes || []).map((h) => `<tr><td>${suit(h.suit)}</td><td>${esc(h.cards.map(card).join(" "))}</td>`
      + `<td>${h.safe ? "✓" : esc(h.holes.map(card).join(" "))}</td></tr>`);
    $("misere").innerHTML = `<h3>${t("forced")}</h3><table><tr><th>${t("card")}</th><th>n</th><th>${t("share")}</th></tr>${forced.join("")}</table>`
      + `<h3>${t("holes")}</h3><table>${holes.join("")}</table>`;
    $("misere").hidden = false;
  });
}

$("form").addEventListener("submit", (e) => { e.preventDefault(); run(); });
$("cancel").addEventListener("click", () => { if (job) fetch(`/api/jobs/${job}/cancel`, { method: "POST" }); });
$("game").addEventListener("change", showGame);
$("lang").addEventListener("change", () => { labels(); grid(); if (chosen.size) $("hand").value = handText(); });
$("hand").addEventListener("change", readHand);
$("rules-base").addEventListener("change", switches);

let meta = null;
async function switches() {
  if (!meta) meta = await (await fetch("/api/meta")).json();
  $("switch-names").innerHTML = (meta.rules[$("rules-base").value] || []).map((n) => `<option value="${esc(n)}=">`).join("");
}

(async function init() {
  const q = new URLSearchParams(location.search);
  load(q);
  labels();
  showGame();
  grid();
  switches();
  if (q.get("hand")) { await readHand(); run(); }
})();
