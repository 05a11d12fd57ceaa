// The HTML replay page of `canasta show --html`: the deals' states as JSON,
// and a page that draws them (html.h: how text from a record stays text).
// Self-contained: no network, no external script, style or font.
// Parameters in the address (#deal=1&step=20&view=0) open a given deal,
// step and view; `press=Right,Right,Left` presses keys once the page is
// drawn (the browser test uses it).
#include <fmt/format.h>

#include "canasta/engine.h"
#include "canasta/json.h"
#include "canasta/notation.h"
#include "canasta/profile.h"
#include "html.h"
#include "table.h"

namespace canasta::cli {

namespace {

std::string tokens(CardSet c) { return cards_to_string(c); }

// "K:K K K JK|9:9 9 9" (rank, then the cards), canastas marked by a trailing
// "*n" (natural), "*m" (mixed) or "*w" (the wild canasta).
std::string melds(const TeamMelds& m) {
  std::string out;
  for (int k = kTwo; k <= kLastNatural; ++k) {  // the wild meld ("wild", kTwo) first
    if (m.size(k) == 0) continue;
    const CardSet c = m.cards(k);
    out += fmt::format("{}{}:{}{}", out.empty() ? "" : "|", meld_token(k), tokens(c),
                       m.is_canasta(k) ? (k == kTwo    ? "*w"
                                          : m.wilds(k) ? "*m"
                                                       : "*n")
                                       : "");
  }
  return out;
}

void deal_json(JsonWriter& w, const ShownDeal& d) {
  const DealRecord& r = d.record;
  const Rules& rules = r.rules;
  w.begin_object();
  w.field("title", fmt::format("line {}: {} deal {}, seed {}", d.line,
                               r.kind == RecordKind::kGame ? "game" : "single", r.deal, r.seed));
  w.field("profile", profile_spec(rules)).field("players", rules.players).field("teams", rules.teams);
  w.key("agents").begin_array();
  for (const std::string& a : r.agents) w.value(a);
  w.end_array();
  w.key("steps").begin_array();
  for (size_t i = 0; i < d.states.size(); ++i) {
    const State& s = d.states[i];
    w.begin_object();
    if (i > 0)
      w.field("seat", r.actions[i - 1].first).field("action", action_to_string(r.actions[i - 1].second));
    w.key("hands").begin_array();
    for (int seat = 0; seat < rules.players; ++seat) w.value(tokens(s.hand[seat]));
    w.end_array();
    w.key("known").begin_array();
    for (int seat = 0; seat < rules.players; ++seat) w.value(tokens(s.known[seat]));
    w.end_array();
    w.key("melds").begin_array();
    for (int t = 0; t < rules.teams; ++t) w.value(melds(s.melds[t]));
    w.end_array();
    w.key("red3").begin_array();
    for (int seat = 0; seat < rules.players; ++seat) w.value(static_cast<int>(s.red3[seat]));
    w.end_array();
    w.field("top", s.pile_size ? std::string(kind_token(s.top())) : std::string());
    w.field("pile", static_cast<int>(s.pile_size)).field("frozen", s.pile_frozen);
    w.field("stock", s.stock_size()).field("actor", s.over() ? -1 : s.actor());
    const auto score = deal_score(s);
    w.key("table").begin_array();
    for (int t = 0; t < rules.teams; ++t) w.value(score[t].total() - score[t].in_hand);
    w.end_array();
    w.end_object();
  }
  w.end_array();
  w.field("score", score_text(d.states.back()));
  w.end_object();
}

// The page around the data, in three pieces: the head (the content
// security policy goes between kHead and kHeadRest), the body up to the
// data block, and the one script. Kept in raw strings: the page is one file.
constexpr const char* kHead = R"(<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src )";

constexpr const char* kHeadRest = R"(">
<title>canasta replay</title>
<style>
body{font-family:system-ui,-apple-system,"Segoe UI",sans-serif;margin:0;background:#1d5c3a;color:#f4f1e8}
header{display:flex;gap:12px;align-items:center;padding:8px 14px;background:#123d26;flex-wrap:wrap}
header select,header button{font-size:14px}
main{display:grid;grid-template-columns:1fr 290px;gap:12px;padding:12px}
#table{display:grid;grid-template-columns:1fr 1fr 1fr;grid-template-rows:auto auto auto;gap:10px}
.seat{background:#17502f;border-radius:8px;padding:8px;min-height:70px}
.seat.actor{outline:3px solid #f2c94c}
.seat h3,.side h3{margin:0 0 6px 0;font-size:14px;font-weight:600}
.hand{display:flex;flex-wrap:wrap;gap:3px}
.card{display:inline-block;min-width:26px;padding:6px 4px;text-align:center;border-radius:5px;background:#fffdf6;
  color:#222;font-weight:700;font-size:14px;box-shadow:0 1px 2px #0006}
.card.wild{color:#8e24aa}.card.red3{color:#c62828}.card.black3{color:#1e3a8a}
.card.back{background:repeating-linear-gradient(45deg,#7a1f2b,#7a1f2b 4px,#93303d 4px,#93303d 8px);color:transparent}
.center{grid-column:2;grid-row:2;background:#17502f;border-radius:8px;padding:8px;text-align:center}
.sides{grid-column:1/4;display:grid;gap:10px}
.side{background:#17502f;border-radius:8px;padding:8px}
.meld{display:inline-flex;gap:2px;margin:3px 10px 3px 0;padding:3px;border-radius:6px;background:#0f3f24}
.meld.canasta{outline:2px solid #f2c94c}
.meld .rank{align-self:center;padding:0 4px;font-size:12px}
.known{font-size:12px;opacity:.85;margin-top:4px}
aside{background:#123d26;border-radius:8px;padding:8px;max-height:86vh;overflow:auto}
#log{margin:0;padding-left:34px;font-size:13px}
#log li{cursor:pointer;padding:1px 0}#log li.current{background:#f2c94c;color:#222}
svg{background:#17502f;border-radius:8px}
pre{white-space:pre-wrap;font-size:13px}
</style></head><body>
<header><b>canasta replay</b><select id="deal"></select>
<button id="first" title="Home">|&#x25C0;</button><button id="prev" title="Left arrow">&#x25C0;</button>
<span id="where"></span><button id="next" title="Right arrow">&#x25B6;</button><button id="last" title="End">&#x25B6;|</button>
<label>hands <select id="view"></select></label><span id="info"></span></header>
<main><section><div id="table"></div><svg id="chart" width="100%" height="170"></svg><pre id="score"></pre></section>
<aside><b>actions</b><ol id="log" start="1"></ol></aside></main>
<script type="application/json" id="deals">)";

// Every string of the data reaches the page as text (append, textContent,
// attribute values): none is ever parsed as markup.
constexpr const char* kScript = R"(
const DEALS = JSON.parse(document.getElementById('deals').textContent);
const $ = id => document.getElementById(id);
let deal = 0, step = 0, view = 'all';
function el(tag, cls, ...kids) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  e.append(...kids);
  return e;
}
function svg(tag, attrs, text) {
  const e = document.createElementNS('http://www.w3.org/2000/svg', tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  if (text !== undefined) e.textContent = text;
  return e;
}
function option(value, text) { const o = el('option', '', text); o.value = String(value); return o; }
function kindClass(t) { return t === 'JK' || t === '2' ? 'wild' : t === '3r' ? 'red3' : t === '3b' ? 'black3' : ''; }
function card(t) { return el('span', 'card ' + kindClass(t), t); }
function back() { return el('span', 'card back', '?'); }
function split(s) { return s ? s.split(' ') : []; }
function seatBox(d, st, seat) {
  const box = el('div', 'seat' + (st.actor === seat ? ' actor' : ''));
  const cards = split(st.hands[seat]);
  const shown = view === 'all' || Number(view) === seat;
  const agent = d.agents.length ? ' (' + d.agents[seat] + ')' : '';
  box.append(el('h3', '', 'seat ' + seat + ' \u00b7 side ' + (seat % d.teams) + agent + ' \u00b7 ' + cards.length +
    ' cards' + (st.red3[seat] ? ' \u00b7 red threes ' + st.red3[seat] : '')));
  const hand = el('div', 'hand');
  hand.dataset.seat = seat;
  for (const t of cards) hand.append(shown ? card(t) : back());
  hand.dataset.count = hand.querySelectorAll('.card').length;
  box.append(hand);
  if (st.known[seat] && !(shown && view === 'all')) box.append(el('div', 'known', 'took with the pile: ' + st.known[seat]));
  return box;
}
function sideBox(d, st, side) {
  const box = el('div', 'side', el('h3', '', 'side ' + side + ' melds \u00b7 table ' + st.table[side]));
  box.dataset.side = side;
  for (const m of (st.melds[side] ? st.melds[side].split('|') : [])) {
    const [rank, rest] = m.split(':');
    const canasta = rest.endsWith('*n') || rest.endsWith('*m') || rest.endsWith('*w');
    const kind = canasta ? (rest.endsWith('*n') ? ' natural' : rest.endsWith('*w') ? ' wild' : ' mixed') : '';
    const e = el('span', 'meld' + (canasta ? ' canasta' : ''), el('span', 'rank', rank + kind));
    for (const t of split(canasta ? rest.slice(0, -2) : rest)) e.append(card(t));
    box.append(e);
  }
  return box;
}
function chart(d) {
  const box = $('chart'), w = box.clientWidth || 800, h = 170, pad = 26, n = d.steps.length;
  let lo = 0, hi = 100;
  for (const st of d.steps) for (const v of st.table) { lo = Math.min(lo, v); hi = Math.max(hi, v); }
  const x = i => pad + (w - 2 * pad) * i / Math.max(n - 1, 1), y = v => h - pad - (h - 2 * pad) * (v - lo) / (hi - lo);
  const colors = ['#f2c94c', '#9ad0ff', '#ff9aa2'];
  const parts = [svg('text', {x: 6, y: 14, fill: '#f4f1e8', 'font-size': 12}, 'table scores by step (melds, canastas, red threes)'),
    svg('line', {x1: pad, x2: w - pad, y1: y(0), y2: y(0), stroke: '#ffffff55'})];
  for (let t = 0; t < d.teams; ++t) {
    const pts = d.steps.map((st, i) => x(i) + ',' + y(st.table[t])).join(' ');
    parts.push(svg('polyline', {fill: 'none', 'stroke-width': 2, stroke: colors[t], points: pts}));
    parts.push(svg('text', {x: w - pad - 60, y: 16 + 14 * t, fill: colors[t], 'font-size': 12}, 'side ' + t));
  }
  parts.push(svg('line', {id: 'cursor', x1: x(step), x2: x(step), y1: pad / 2, y2: h - pad / 2, stroke: '#fff'}));
  box.replaceChildren(...parts);
}
function render() {
  const d = DEALS[deal], st = d.steps[step];
  const table = $('table');
  table.replaceChildren();
  const places = d.players === 4 ? [[3, 2], [2, 1], [1, 2], [2, 3]] : d.players === 2 ? [[3, 2], [1, 2]] :
    [[3, 2], [2, 1], [1, 1], [1, 2], [1, 3], [2, 3]];
  for (let seat = 0; seat < d.players; ++seat) {
    const b = seatBox(d, st, seat);
    b.style.gridRow = places[seat][0]; b.style.gridColumn = places[seat][1];
    table.append(b);
  }
  const c = el('div', 'center', el('h3', '', 'pile'));
  if (st.top) c.append(card(st.top));
  c.append(el('div', '', st.pile + ' cards' + (st.frozen ? ', frozen' : '')), el('div', '', 'stock ' + st.stock));
  table.append(c);
  const sides = el('div', 'sides');
  sides.style.gridRow = 4;
  for (let t = 0; t < d.teams; ++t) sides.append(sideBox(d, st, t));
  table.append(sides);
  $('where').textContent = 'step ' + step + ' / ' + (d.steps.length - 1);
  $('info').textContent = d.profile + (step ? ' \u00b7 last: seat ' + st.seat + ' ' + st.action : ' \u00b7 as dealt');
  for (const li of $('log').children) li.className = Number(li.dataset.step) === step ? 'current' : '';
  const cur = $('log').querySelector('.current');
  if (cur) cur.scrollIntoView({block: 'nearest'});
  $('score').textContent = step === d.steps.length - 1 ? d.score : '';
  chart(d);
  document.body.dataset.currentStep = step;
}
function load(i) {
  deal = i;
  const d = DEALS[deal];
  $('deal').value = String(deal);
  step = Math.min(step, d.steps.length - 1);
  const log = $('log');
  log.replaceChildren();
  d.steps.forEach((st, j) => {
    if (!j) return;
    const li = el('li', '', 'seat ' + st.seat + ': ' + st.action);
    li.dataset.step = j;
    li.onclick = () => go(j);
    log.append(li);
  });
  const v = $('view');
  v.replaceChildren(option('all', 'all'));
  for (let s = 0; s < d.players; ++s) v.append(option(s, 'seat ' + s));
  v.value = view;
  render();
}
function go(s) { step = Math.max(0, Math.min(s, DEALS[deal].steps.length - 1)); render(); }
function key(k) {
  if (k === 'ArrowRight' || k === 'Right') go(step + 1);
  else if (k === 'ArrowLeft' || k === 'Left') go(step - 1);
  else if (k === 'Home') go(0);
  else if (k === 'End') go(DEALS[deal].steps.length - 1);
}
DEALS.forEach((d, i) => $('deal').append(option(i, d.title)));
$('deal').onchange = e => { step = 0; load(Number(e.target.value)); };
$('view').onchange = e => { view = e.target.value; render(); };
$('first').onclick = () => go(0); $('last').onclick = () => key('End');
$('prev').onclick = () => go(step - 1); $('next').onclick = () => go(step + 1);
document.addEventListener('keydown', e => key(e.key));
const args = new URLSearchParams(location.hash.slice(1));
view = args.get('view') || 'all';
step = Number(args.get('step') || 0);
load(Math.min(Number(args.get('deal') || 0), DEALS.length - 1));
for (const k of (args.get('press') || '').split(',').filter(x => x))
  document.dispatchEvent(new KeyboardEvent('keydown', {key: k === 'Right' ? 'ArrowRight' : k === 'Left' ? 'ArrowLeft' : k}));
)";

}  // namespace

std::string replay_page(const std::vector<ShownDeal>& deals) {
  std::string data;
  JsonWriter w(data);
  w.begin_array();
  for (const ShownDeal& d : deals) deal_json(w, d);
  w.end_array();
  return kHead + csp_script_source(kScript) + kHeadRest + json_for_script(data) + "</script>\n<script>" +
         kScript + "</script></body></html>\n";
}

}  // namespace canasta::cli
