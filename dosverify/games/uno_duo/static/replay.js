// UNO Duo's table in the organiser's page replay: a script of the UNO Duo pack
// (dosverify.games.uno_duo, static/replay.js), served at /games/uno-duo/replay.js and loaded by
// the page for UNO Duo logs only. It draws one state of POST /v1/replay's answer
// (dosverify.games.uno_duo.pagereplay): the top card and the colour in play, the piles, what the
// player to move faces (a Draw 2 volley's total, a Wild Draw 4, a start run owed), both hands and
// the UNO state. It uses the page's `el` helper and registers itself with `registerReplayView`
// (app.js; docs/packs.md, "The page").
"use strict";

(() => {
  const COLOURS = {R: "red", G: "green", B: "blue", Y: "yellow", W: "wild"};
  const COLOUR_NAMES = {R: "red", G: "green", B: "blue", Y: "yellow"};
  const UNO_TEXT = {called: "called UNO", owed: "UNO not called", caught: "caught"};

  function card(code) {
    if (!/^[RGBYW]/.test(code)) return el("span", {class: "card back", role: "img", title: "a card not shown", "aria-label": "a face-down card"}, "");
    return el("span", {class: `card c-${code[0]}`, role: "img", "aria-label": `${COLOURS[code[0]]} ${code.slice(1)}`}, code);
  }

  function pendingText(p) {
    if (!p) return "nothing";
    if (p.kind === "total") return `${p.player} faces a Draw 2 volley of ${p.total} cards (stack a Draw 2 or draw them)`;
    if (p.kind === "wd4") return `${p.player} faces a Wild Draw 4 (draw 4 or challenge)`;
    return `${p.player} owes a start run${p.colour ? " of " + (COLOUR_NAMES[p.colour] || p.colour) : ""}`;
  }

  registerReplayView("uno-duo", {
    table(s, result) {
      return [
        el("div", {class: "center-row"}, el("h4", {id: "top-h"}, "Discard pile"),
          el("div", {class: "cards", id: "top", "aria-labelledby": "top-h"}, s.top ? card(s.top) : "–"),
          el("p", {}, "Colour in play: ", el("strong", {id: "colour"}, s.colour ? COLOUR_NAMES[s.colour] : "any"))),
        el("p", {class: "piles"}, "Draw pile: ", el("strong", {id: "draw-pile"}, s.draw_pile),
          " cards; discard pile: ", el("strong", {id: "discard-pile"}, s.discard_pile), " cards"),
        el("p", {class: "pending"}, "Pending: ", el("strong", {id: "pending"}, pendingText(s.pending))),
        el("div", {class: "scroll", tabindex: "0", role: "region", "aria-label": "The players after the turn"},
          el("table", {class: "seats"},
            el("caption", {}, "The players after the turn"),
            el("thead", {}, el("tr", {}, ["Player", "Hand", "Cards", "UNO", "Total"].map((h) =>
              el("th", {scope: "col", class: h === "Cards" || h === "Total" ? "num" : null}, h)))),
            el("tbody", {}, result.players.map((p) => {
              const seat = s.seats[p];
              return el("tr", {class: p === s.player ? "on-turn" : null, "data-player": p},
                el("th", {scope: "row"}, p), el("td", {}, el("div", {class: "cards"}, seat.hand.map(card))),
                el("td", {class: "num"}, seat.cards),
                el("td", {class: seat.uno ? `call-${seat.uno}` : null}, seat.uno ? UNO_TEXT[seat.uno] : "–"),
                el("td", {class: "num"}, seat.total));
            })))),
      ];
    },
  });
})();
