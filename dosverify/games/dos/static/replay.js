// DOS's table in the organiser's page replay: a script of the DOS pack (dosverify.games.dos,
// static/replay.js), served at /games/dos/replay.js and loaded by the page for DOS logs only.
// It draws one state of POST /v1/replay's answer (dosverify.games.dos.replay): the Center Row,
// the piles, and each player's hand, card count, DOS state and running total. It uses the page's
// `el` helper and registers itself with `registerReplayView` (app.js; docs/packs.md, "The page").
"use strict";

(() => {
  const COLOURS = {R: "red", G: "green", B: "blue", Y: "yellow", W: "wild"};
  const DOS_TEXT = {called: "called DOS", owed: "DOS not called", caught: "caught"};

  function card(code) {
    if (!/^[RGBYW]/.test(code)) return el("span", {class: "card back", role: "img", title: "a card not shown", "aria-label": "a face-down card"}, "");
    return el("span", {class: `card c-${code[0]}`, role: "img", "aria-label": `${COLOURS[code[0]]} ${code.slice(1)}`}, code);
  }

  registerReplayView("dos", {
    table(s, result) {
      return [
        el("div", {class: "center-row"}, el("h4", {id: "center-h"}, "Center Row"),
          el("div", {class: "cards", id: "center", "aria-labelledby": "center-h"}, s.center.map(card))),
        el("p", {class: "piles"}, "Draw pile: ", el("strong", {id: "draw-pile"}, s.draw_pile),
          " cards; discard pile: ", el("strong", {id: "discard-pile"}, s.discard_pile), " cards"),
        el("div", {class: "scroll", tabindex: "0", role: "region", "aria-label": "The players after the turn"},
          el("table", {class: "seats"},
            el("caption", {}, "The players after the turn"),
            el("thead", {}, el("tr", {}, ["Player", "Hand", "Cards", "DOS", "Total"].map((h) =>
              el("th", {scope: "col", class: h === "Cards" || h === "Total" ? "num" : null}, h)))),
            el("tbody", {}, result.players.map((p) => {
              const seat = s.seats[p];
              return el("tr", {class: p === s.player ? "on-turn" : null, "data-player": p},
                el("th", {scope: "row"}, p), el("td", {}, el("div", {class: "cards"}, seat.hand.map(card))),
                el("td", {class: "num"}, seat.cards),
                el("td", {class: seat.dos ? `call-${seat.dos}` : null}, seat.dos ? DOS_TEXT[seat.dos] : "–"),
                el("td", {class: "num"}, seat.total));
            })))),
      ];
    },
  });
})();
