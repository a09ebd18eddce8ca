// UNO Duo's table in the organiser's page replay: a script of the UNO Duo pack
// (dosverify.games.uno_duo, static/replay.js), served at /games/uno-duo/replay.js and loaded by
// the page for UNO Duo logs only. It draws one state of POST /v1/replay's answer
// (dosverify.games.uno_duo.pagereplay): the top card and the colour in play, the piles, what the
// player to move faces (a Draw 2 volley's total, a Wild Draw 4, a start run owed), both hands and
// the UNO state. It uses the page's `el` helper and registers itself with `registerReplayView`
// (app.js; docs/packs.md, "The page"), drawing the cards, piles and players with its `replayParts`.
"use strict";

(() => {
  const {card, piles, seats} = replayParts;
  const COLOUR_NAMES = {R: "red", G: "green", B: "blue", Y: "yellow"};
  const CALL = {header: "UNO", key: "uno", text: {called: "called UNO", owed: "UNO not called", caught: "caught"}};

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
        piles(s),
        el("p", {class: "pending"}, "Pending: ", el("strong", {id: "pending"}, pendingText(s.pending))),
        seats(s, result, CALL),
      ];
    },
  });
})();
