"""Mutation operators: one known defect put into a legal log.

Each operator takes a legal log's text and a ``random.Random`` and returns a
:class:`Mutation` (the mutated text, with exactly one defect, and the finding the
referee must report first: its kind, rule id and line), or None when the log has
no place where the operator applies. Later findings, consequences of the defect,
may follow; nothing may come before the expected line.

Where a finding is expected follows notation.md ("Where a finding is reported"):
a step too early is reported at its own line; a missing step at the first event
line after the turn (the next ``turn``, ``round`` or ``score`` line), or at the
last line + 1 at the end of the file.

To know the state at each line (hands, Center Row, pile, the role of each draw),
:func:`analyse` (:mod:`.analysis`) replays the legal log with a small replayer of its own (it trusts
the log; it is not a referee).

The operators are grouped by family, one module each (:mod:`.matches`, :mod:`.bonuses`, :mod:`.draws`,
:mod:`.turns`, :mod:`.scoring`, :mod:`.syntax`, :mod:`.slips`); :mod:`.sites` holds what they share.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from ... import Mutation
from .analysis import Analysis, Line, TurnInfo, analyse, base_of, decl_colour
from .bonuses import (
    op_drop_bonus,
    op_drop_dcm_draw,
    op_extra_bonus,
    op_extra_dcm_draw,
    op_swap_bonus_penalty,
    op_swap_penalty_dcm,
    op_swap_refill_bonus,
)
from .cardedits import card_code_edit, card_code_sites
from .draws import op_draw_not_top, op_missing_refill, op_missing_reshuffle
from .matches import op_double_sum, op_matched_twice, op_not_held, op_refilled_matched, op_single_number
from .scoring import (
    op_bad_pass,
    op_wrong_dealer,
    op_wrong_first_dealer,
    op_wrong_score,
    op_wrong_totals,
    op_wrong_winner,
)
from .sites import delete_lines, insert_after, replace_line
from .slips import (
    op_card_typo,
    op_drop_line,
    op_drop_nomatch_draw,
    op_drop_nomatch_place,
    op_drop_turn_line,
    op_lower_codes,
    op_misspelt_name,
    op_misspelt_turn,
    op_swapped_cards,
    op_swapped_refills,
)
from .syntax import op_excess_copies, op_glued_words, op_invalid_card, op_invalid_match_card
from .turns import op_bogus_catch, op_drop_penalty, op_wrong_turn

OPERATORS: dict[str, Callable[[str, random.Random], Mutation | None]] = {
    "double_sum": op_double_sum,
    "single_number": op_single_number,
    "matched_twice": op_matched_twice,
    "refilled_matched": op_refilled_matched,
    "not_held": op_not_held,
    "drop_bonus": op_drop_bonus,
    "extra_bonus": op_extra_bonus,
    "drop_dcm_draw": op_drop_dcm_draw,
    "extra_dcm_draw": op_extra_dcm_draw,
    "swap_refill_bonus": op_swap_refill_bonus,
    "swap_bonus_penalty": op_swap_bonus_penalty,
    "swap_penalty_dcm": op_swap_penalty_dcm,
    "draw_not_top": op_draw_not_top,
    "missing_refill": op_missing_refill,
    "missing_reshuffle": op_missing_reshuffle,
    "wrong_turn": op_wrong_turn,
    "bogus_catch": op_bogus_catch,
    "drop_penalty": op_drop_penalty,
    "wrong_score": op_wrong_score,
    "wrong_totals": op_wrong_totals,
    "wrong_winner": op_wrong_winner,
    "wrong_dealer": op_wrong_dealer,
    "wrong_first_dealer": op_wrong_first_dealer,
    "bad_pass": op_bad_pass,
    "excess_copies": op_excess_copies,
    "glued_words": op_glued_words,
    "invalid_card": op_invalid_card,
    "invalid_match_card": op_invalid_match_card,
    "card_typo": op_card_typo,
    "lower_codes": op_lower_codes,
    "misspelt_turn": op_misspelt_turn,
    "misspelt_name": op_misspelt_name,
    "drop_turn_line": op_drop_turn_line,
    "swapped_cards": op_swapped_cards,
    "swapped_refills": op_swapped_refills,
    "drop_nomatch_draw": op_drop_nomatch_draw,
    "drop_nomatch_place": op_drop_nomatch_place,
    "drop_line": op_drop_line,
}


def mutate(text: str, operator: str, rng: random.Random) -> Mutation | None:
    """Apply one operator by name."""
    return OPERATORS[operator](text, rng)


__all__ = [
    "OPERATORS",
    "Analysis",
    "Line",
    "TurnInfo",
    "analyse",
    "base_of",
    "card_code_edit",
    "card_code_sites",
    "decl_colour",
    "delete_lines",
    "insert_after",
    "mutate",
    "replace_line",
]
