"""The text notation (v1): parse a log into the event model, and write one back.

``parse`` reads text (or bytes) into a :class:`~dosverify.games.dos.events.Log` and a list of
findings. The grammar (:mod:`.grammar` finds it) defines what one line may say; a line that is not
a sentence of the notation, or stands out of place, is reported and skipped, and reading goes on
with the next line. The parser never judges the game: players, cards and turns are the referee's.

Speed: a well-formed line is read by the fast path (:mod:`.fastpath`), any other by the LALR
parser (:mod:`.larkpath`), which builds the models as it reduces; :mod:`.reader` keeps recovery
linear in the size of the log. The parts: :mod:`.words` (keywords and card codes), :mod:`.items`,
:mod:`.syntax` (how an error is told), :mod:`.recovery`, :mod:`.textstream` (a round at a time),
:mod:`.placement` (where a line may stand), :mod:`.facedown`, :mod:`.writer`.
"""

from ....model import Parsed
from .facedown import face_down_checks, face_down_round
from .fastpath import fast_path_on
from .grammar import grammar_path, grammar_text
from .syntax import tok_type
from .textstream import TextStream, parse, stream, utf16_problem
from .words import (
    CARD_WORD_RE,
    COLOURS,
    KEYWORDS,
    NAME_RE,
    NUMBERS,
    TAG_RE,
    VALID_CARDS,
    WORD_RE,
    card_problem,
    card_slip,
)
from .writer import write

__all__ = [
    "CARD_WORD_RE",
    "COLOURS",
    "KEYWORDS",
    "NAME_RE",
    "NUMBERS",
    "TAG_RE",
    "VALID_CARDS",
    "WORD_RE",
    "Parsed",
    "TextStream",
    "card_problem",
    "card_slip",
    "face_down_checks",
    "face_down_round",
    "fast_path_on",
    "grammar_path",
    "grammar_text",
    "parse",
    "stream",
    "tok_type",
    "utf16_problem",
    "write",
]
