// DOS's table in the organiser's page replay: a script of the DOS pack (dosverify.games.dos,
// static/replay.js), served at /games/dos/replay.js and loaded by the page for DOS logs only.
// It draws one state of POST /v1/replay's answer (dosverify.games.dos.replay): the Center Row,
// the piles, and each player's hand, card count, DOS state and running total. It uses the page's
// `el` helper and its `replayParts` (a card, the piles, the players' table) and registers itself
// with `registerReplayView` (app.js; docs/packs.md, "The page").
"use strict";

(() => {
  const {card, piles, seats} = replayParts;
  const CALL = {header: "DOS", key: "dos", text: {called: "called DOS", owed: "DOS not called", caught: "caught"}};

  registerReplayView("dos", {
    table(s, result) {
      return [
        el("div", {class: "center-row"}, el("h4", {id: "center-h"}, "Center Row"),
          el("div", {class: "cards", id: "center", "aria-labelledby": "center-h"}, s.center.map(card))),
        piles(s),
        seats(s, result, CALL),
      ];
    },
  });
})();
