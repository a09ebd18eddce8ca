"""The game packs, and the one place that knows which there are.

The core (reading a source, the report, the formats, the runner, the service, the command
line) knows no game: it asks :func:`find_game` for the pack that a log's first word (text) or
its game key (JSON) names, and the pack reads, judges, writes and generates logs of its game.
Packs are found, not listed: each distribution registers its games in the entry-point group
``dosverify.games`` (dosverify.registry), and a pack's module is imported here only, when a log of
its game is met (python-chess's ``chess.variant.find_variant`` is the model), and checked for the
pack API it speaks. A pack that fails to load is said on first use of its game and in
``dosverify --version``, and never stops the others (docs/packs.md).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Any, ClassVar, Literal, cast

from ..registry import GROUP, Registered
from ..registry import REGISTRY as REGISTRY  # re-exported: the core, the service and the tests ask here
from ..registry import log_game as log_game  # re-exported: the one place a log's game is told
from ..registry import sniff_game as sniff_game  # re-exported: the games and the core ask here too

if TYPE_CHECKING:
    from importlib.resources.abc import Traversable
    from pathlib import Path

    from ..findings import Finding, Keep, Kept
    from ..model import Parsed
    from ..moves.protocol import PackMoves
    from ..pipeline import Judge, Reading
    from ..report import Report
    from ..spec import Ruleset, Spec, SpecError


@dataclass(frozen=True)
class Mutation:
    """One defect put into a legal log by an operator: the log, the rule it breaks, and the line
    where the referee must report it (the one error finding the mutant must give)."""

    operator: str
    text: str
    kind: str
    rule: str
    line: int
    note: str = ""


@dataclass(frozen=True)
class GameResult:
    """What one game's log says about its outcome, for standings (dosverify.store).

    ``players`` in seat order; ``winner`` the game's winner (None when the game did not end, or
    ended without one); ``rounds_won`` and ``points`` per player (every player a key, 0 when none);
    ``finished`` whether the game reached its end by the game's own rules."""

    players: tuple[str, ...]
    winner: str | None
    rounds_won: dict[str, int]
    points: dict[str, int]
    finished: bool


@dataclass(frozen=True)
class ResultRule:
    """How a game is won, as an event's standings need it (dosverify.store.standings): which
    total is the better one, the same reading as :meth:`GamePack.result`'s winner.

    ``points_better`` ``"higher"`` (more points rank first) or ``"lower"`` (fewer first);
    ``summary`` one sentence for people, as the standings and the event report state it after
    the game's title ("UNO Duo: the lowest total wins"); ``ends`` what ends a game, in words;
    ``sources`` the ids of the spec's rules it rests on (spec/<folder>/rules/, each a rule the
    spec has: the contract tests hold a pack to it)."""

    points_better: Literal["higher", "lower"]
    summary: str
    ends: str
    sources: tuple[str, ...]


#: The pack API this core speaks (a pack's ``api_version``): raised when the interface changes in a
#: way an existing pack would not meet; a pack of another one is refused on load, by name.
PACK_API = 1
SUPPORTED_PACK_API: tuple[int, ...] = (1,)

#: What a pack may offer beyond reading, judging and writing logs (its ``capabilities``): the core
#: asks this set, never probes for a method.
CAPABILITIES = frozenset(
    {
        "simulate",  # generated legal games (`simulate`, the contract's properties)
        "mutate",  # mutation operators (one defect, one finding)
        "profile",  # option inference (`profile`, `check --ruleset auto`, /v1/profile)
        "views",  # face-down logs: `hide`, a table's or a seat's view
        "witness",  # the open log proving a legal face-down log (`check --witness`)
        "replay",  # the table after every turn (`replay`, POST /v1/replay, the page)
        "result",  # who won, for standings
        "moves",  # the move API: legal next lines and a table to play on (dosverify.moves)
        "recognize",  # which text lines its notation reads: a log of it under another game's header is named
        "page",  # its own replay view on the organiser's page: a script of its package (`page_script`)
    }
)

#: A mutation operator: a legal log and a seeded random source in, a mutant (or None: no place
#: in this log to put the defect) out.
Operator = Callable[[str, Any], "Mutation | None"]


class GamePack:
    """What a game brings to the core. A game's package sets ``PACK = SomePack()``.

    Every method has the game's own meaning; the contract tests (tests/games/) hold every
    registered pack to the same duties: its notation's examples mean what its page says, every
    rule has a legal and an illegal fixture, generated games are legal in every rendering, every
    mutation operator gives one error finding at its line, text and JSON say the same."""

    api_version: ClassVar[int] = PACK_API  # the pack API it is written for (checked on load)
    capabilities: ClassVar[frozenset[str]] = frozenset()  # which of CAPABILITIES it has
    default_rank: ClassVar[int] = 100  # the game meant when none is named: the lowest rank's
    name: ClassVar[str]  # the header word (`dos` in `dos 1`) and the JSON form's game key
    title: ClassVar[str]  # for people: "DOS", "UNO Duo"
    versions: ClassVar[tuple[int, ...]] = (1,)  # the notation versions it reads
    folder: ClassVar[str]  # spec/<folder>/, grammars/<folder>/, fixtures/<folder>/ of a checkout
    result_rule: ClassVar[ResultRule]  # how a game of it is won: the standings rank points by it

    # ---- its data ----------------------------------------------------------------------
    def data_path(self, kind: str) -> Path:
        """The folder of the game's data of `kind` (``spec``, ``grammars``, ``conformance``): the
        copy inside the pack's own package (``<package>/_data/<kind>/`` in an install), else a source
        checkout's top-level ``spec/<folder>/``, ``grammars/<folder>/``, ``fixtures/<folder>/conformance/``
        (dosverify.resources). A pack may lay out its package otherwise and override this."""
        import sys

        from ..resources import game_data

        return game_data(sys.modules[type(self).__module__].__package__ or "", kind, self.folder)

    def spec_path(self) -> Path:
        """The folder of the game's rules specification (spec.toml, rules/, rulesets/, options.toml):
        :meth:`data_path` ``("spec")`` by default; a pack in its own distribution may supply its
        package's (``importlib.resources.files(PKG) / "spec"``)."""
        return self.data_path("spec")

    def fixtures_path(self) -> Path:
        """The folder of the game's fixtures (rules/<id>/ with a legal and an illegal log each, ...).
        A built-in pack's is fixtures/<folder>/ of a source checkout (the default: FileNotFoundError
        from an install); a pack in its own distribution supplies its own."""
        from ..resources import checkout

        root = checkout()
        if root is None:
            raise FileNotFoundError("the fixtures need a source checkout")
        return root / "fixtures" / self.folder

    def example_path(self) -> Path | None:
        """A short legal log of the game for people to try (the page's example button, ``GET
        /v1/games/{game}/example``): by default ``example.log`` beside the spec (:meth:`spec_path`);
        None when there is none."""
        path = self.spec_path() / "example.log"
        return path if path.is_file() else None

    def notation_path(self) -> Path | None:
        """The game's notation for people (``GET /v1/games/{game}/notation``, linked from the page):
        by default ``notation.md`` beside the spec (:meth:`spec_path`); None when there is none."""
        path = self.spec_path() / "notation.md"
        return path if path.is_file() else None

    def spec(self) -> Spec:
        """The game's rules specification (:meth:`spec_path`), loaded once."""
        from ..spec import load_spec

        got = self.__dict__.get("_spec")
        if got is None:
            got = self.__dict__["_spec"] = load_spec(self.spec_path(), self.name)
        return got

    def fixtures(self) -> Path:
        """The game's fixtures folder (:meth:`fixtures_path`)."""
        return self.fixtures_path()

    # ---- reading and judging: the core runs the data path (dosverify.pipeline), the pack its parts
    def check(
        self,
        source: str | bytes | dict[str, Any],
        *,
        name: str = "<input>",
        ruleset: str | None = None,
        form: str | None = None,
        options: dict[str, str] | None = None,
        whole: bool = False,
        keep: Keep | None = None,
    ) -> Report:
        """Read and judge one log of this game (api.check's contract): the findings `keep`
        admits, the first `keep.limit` of them held, the rest counted as they are made. The
        core's pipeline (dosverify.pipeline.check) with this pack's parts: a pack does not
        override it."""
        from ..pipeline import check

        return check(
            self,
            source,
            name=name,
            ruleset=ruleset,
            form=form,
            options=options,
            whole=whole,
            keep=keep,
            notations=_notations if "recognize" in self.capabilities else None,
        )

    def read(self, source: str | bytes | dict[str, Any], *, as_json: bool, whole: bool, sink: Kept) -> Reading | None:
        """The log as far as the referee needs before it starts, and a stream of the rest (a pack
        that reads a round at a time; its findings may go straight into `sink` at
        pipeline.RANK_READER). By default the whole log through :meth:`parse`. None: a JSON
        stream gave way on the header, and the core reads the log whole instead."""
        from ..pipeline import Reading

        return Reading(self.parse(source, "json" if as_json else "text"))

    def referee(self, log: Any, ruleset: Ruleset, *, sink: Kept, read: list[Finding], streamed: bool) -> Judge:
        """The game's referee of `log` (its header, and its rounds unless `streamed`) under
        `ruleset`; `read` the reader's findings (a referee that leaves their lines alone needs
        them); `sink` where findings may go as they are made (else its ``run`` returns them)."""
        raise NotImplementedError

    def ruleset_finding(self, log: Any, ruleset: str, error: SpecError, text: str | None) -> Finding:
        """The finding for a log whose own ruleset (`ruleset`) or option line names none the spec
        has (`error` says which): the log is then malformed, with this finding last."""
        raise NotImplementedError

    def no_round_finding(self, as_json: bool, lines: int) -> Finding | None:
        """The finding for a log without a round (a header alone: nothing refereed), when no error
        was made: the spec's `notation.rounds`, where it has that rule, else none."""
        from ..findings import make_finding

        if "notation.rounds" not in self.spec().rules:
            return None
        return make_finding(
            self.spec(),
            "notation.rounds",
            "the log has no round: nothing was played, nothing refereed",
            line=None if as_json else lines + 1,
            pointer="/rounds" if as_json else None,
            expected="`round 1` and the game's turns after the header",
        )

    def judged(self, report: Report, judge: Judge) -> None:
        """What more a refereed log's report holds beyond the core's fields (DOS: its face-down
        cards and the rules their choice decides). Nothing by default."""

    def header_finding(
        self, message: str, *, line: int, column: int, found: str, expected: str, help: str
    ) -> Finding | None:
        """The finding at a text log's header line that makes the log malformed alone (a log in
        another game's notation under this game's header, READINGS R100): the spec's
        `notation.version` where it has that rule, else its `notation.line`; None when it has
        neither (the log is then judged as it is)."""
        from ..findings import make_finding

        spec = self.spec()
        rule = next((r for r in ("notation.version", "notation.line") if r in spec.rules), None)
        if rule is None:
            return None
        return make_finding(spec, rule, message, line=line, column=column, found=found, expected=expected, help=help)

    def recognize(self, lines: Iterable[str]) -> Iterator[bool]:
        """(capability ``recognize``) For each of `lines`, in order (a text log's lines after its
        header, none blank or a comment alone), whether it is a sentence of this game's notation
        where it stands: a cheap look at its words, lazily, never a reading (the core stops
        asking at will). The core asks it only of a log that is not legal (pipeline.other_notation)."""
        raise NotImplementedError(f"{self.title} does not tell its lines")

    def parse(self, source: str | bytes | dict[str, Any], form: str | None = None) -> Parsed:
        """Read a log whole (text or JSON) into the game's log model, with the reader's findings."""
        raise NotImplementedError

    def write(self, log: Any) -> str:
        """The log model as text notation (without loss, comments aside)."""
        raise NotImplementedError

    def dump_json(self, log: Any) -> str:
        """The log model in the JSON form."""
        raise NotImplementedError

    def json_schema(self) -> dict[str, Any]:
        """The JSON Schema of the game's JSON form."""
        raise NotImplementedError

    def result(self, source: str | bytes | dict[str, Any], report: Report) -> GameResult | None:
        """The outcome of a game, read from its log, by this game's rules: who played, how many
        rounds each won and points each scored, whether the game ended, and who won it (the
        log's own `winner` line when it has one, else the player the game's rule makes the
        winner at its end: in DOS the highest total at the target, in UNO Duo the lowest; the
        pack's :attr:`result_rule` says the same for the standings).
        ``report`` is the referee's report of the same log (its target, its verdict); the points
        are those the log claims (an illegal game's claims are still its claims; the standings
        decide whether illegal games count). None when the log cannot be read (a malformed log
        has no result). Must not raise on any log that ``check`` judged."""
        raise NotImplementedError

    # ---- generating ------------------------------------------------------------------------
    def simulate(
        self,
        *,
        seed: int,
        players: int = 2,
        ruleset: str = "official",
        options: dict[str, str] | None = None,
        whole_game: bool = False,
        style: str = "canonical",
    ) -> str:
        """A legal log, in text notation, of a seeded simulated game (one round, or the whole game),
        written in one of :meth:`styles` (the renderings the notation allows)."""
        raise NotImplementedError

    def styles(self) -> list[str]:
        """The names of the renderings :meth:`simulate` can write (the first is the canonical one)."""
        return ["canonical"]

    def player_counts(self) -> tuple[int, ...]:
        """How many players a game of it may have."""
        return (2,)

    def operators(self) -> dict[str, Operator]:
        """The mutation operators by name (each puts one defect into a legal log)."""
        raise NotImplementedError

    # ---- its commands --------------------------------------------------------------------------
    def commands(self) -> dict[str, Callable[[list[str]], int]]:
        """The game's own commands (`simulate`, `replay`, `profile`, `fmt`, `corpus`, ...): name ->
        main(argv) returning the exit status; the command line runs them for `--game NAME` or for
        the game its log names."""
        return {}

    def profile(
        self, logs: list[tuple[str, str | bytes | dict[str, Any]]], fixed: dict[str, str] | None = None
    ) -> dict[str, Any]:
        """Which options explain these logs (`check --ruleset auto`, `/v1/profile`); see the game's profile."""
        raise NotImplementedError(f"{self.title} has no option inference")

    def auto_choice(self, profile: dict[str, Any]) -> dict[str, Any]:
        """What `--ruleset auto` judges under, from a profile (each report's `auto` field)."""
        raise NotImplementedError(f"{self.title} has no option inference")

    def witness(
        self,
        source: str | bytes | dict[str, Any],
        *,
        name: str = "<input>",
        ruleset: str | None = None,
        form: str | None = None,
    ) -> tuple[str | None, Report]:
        """The log with every face-down card replaced by a card, when it is legal, and its report
        (capability ``witness``; api.witness asks it only then)."""
        raise NotImplementedError(f"{self.title} has no face-down cards")

    def hide(self, log: Any, view: str = "table") -> Any:
        """The log as one seat or the table saw it (face-down cards), where the game's notation has them."""
        raise NotImplementedError(f"{self.title} has no views")

    # ---- what the service and the page ask ----------------------------------------------------
    def log_model(self) -> Any:
        """A pydantic TypeAdapter of the JSON form's log (its schema goes into the OpenAPI document)."""
        raise NotImplementedError

    def replay_model(self) -> Any:
        """The pydantic model of :meth:`replay`'s answer (POST /v1/replay): by default the generic
        one (dosverify.replayview: each turn's lines, findings and a key/value state), which the
        page shows for a game without a view of its own."""
        from ..replayview import GenericReplayResult

        return GenericReplayResult

    def page_script(self) -> Traversable:
        """The script that draws the game's table in the page's replay (capability ``page``): a
        resource of the pack's own package (``importlib.resources.files(PKG) / "static" / "replay.js"``),
        which the service serves at ``/games/<name>/replay.js`` and the page loads for this game's
        logs only. It calls ``registerReplayView(name, {table(state, result)})``, ``table``
        returning the nodes that show one of :meth:`replay`'s states (docs/packs.md, "The page").
        A game without one gets the generic view of :meth:`replay_model`'s key/value state."""
        raise NotImplementedError(f"{self.title} has no page script")

    def moves(self) -> PackMoves:
        """The game's move generator (capability ``moves``; dosverify.moves.protocol)."""
        raise NotImplementedError

    def replay(
        self, source: bytes, form: str | None, name: str, ruleset: str | None, options: dict[str, str]
    ) -> dict[str, Any]:
        """One log's report and the table after every turn, for the page (positional: it runs in the pool)."""
        raise NotImplementedError


def _spec_path_of(name: str) -> Path | None:
    """The spec folder of the registered game `name` (None: no usable pack has that name), for
    :func:`dosverify.spec.load_spec` by a game's name (a report's game) from below this layer."""
    if name not in REGISTRY:
        return None
    try:
        return _load(name).spec_path()
    except PackUnavailable:
        return None


def _set_locator() -> None:
    from ..spec import set_locator

    set_locator(_spec_path_of)


def _notations() -> list[GamePack]:
    """The usable packs that tell their notation's lines (capability ``recognize``), for the data
    path's look at a log in another game's notation (asked only of a log that is not legal)."""
    return [p for p in usable_packs() if "recognize" in p.capabilities]


def game_names() -> list[str]:
    """The registered games' names (the packs that fail to load included: using one says why)."""
    return list(REGISTRY)


class ViewError(ValueError):
    """A view (`table`, `seat:P`) that the log cannot be seen from."""


class UnknownGame(ValueError):
    """A game name (a header word, `--game`, `?game=`) that no pack has."""


class PackUnavailable(UnknownGame):
    """A registered pack that cannot be used: its module failed to import, its entry point names
    no pack, or it speaks another pack API. Said on first use of its game, never stopping the others."""


_LOADED: dict[str, GamePack | PackUnavailable] = {}


def _load(name: str) -> GamePack:
    """The pack registered as `name`, imported and checked once (a failure is remembered too)."""
    got = _LOADED.get(name)
    if got is None:
        got = _LOADED[name] = _import(REGISTRY[name])
    if isinstance(got, PackUnavailable):
        raise got
    return got


def _import(reg: Registered) -> GamePack | PackUnavailable:
    where = f"the game `{reg.name}` (its pack {reg.value}, installed by {reg.dist})"
    module, _, attr = reg.value.partition(":")
    try:
        obj: Any = importlib.import_module(module.strip())
        for part in (attr.strip() or "PACK").split("."):
            obj = getattr(obj, part)
    except Exception as exc:  # a broken plugin says why, and the other games go on
        return PackUnavailable(f"{where} failed to load: {type(exc).__name__}: {exc}")
    api = getattr(obj, "api_version", None)
    if api not in SUPPORTED_PACK_API:
        return PackUnavailable(
            f"{where} is written for pack API {api}; this dosverify speaks pack API "
            f"{', '.join(map(str, SUPPORTED_PACK_API))} (docs/packs.md)"
        )
    if getattr(obj, "name", None) != reg.name:
        return PackUnavailable(f"{where} is a pack of `{getattr(obj, 'name', None)}`, not of `{reg.name}`")
    return cast("GamePack", obj)


def usable_packs() -> list[GamePack]:
    """The registered games' packs that load, in the registry's order (a broken one is left out
    here: it is said on first use of its game and in `--version`, and stops nothing else)."""
    out = []
    for name in REGISTRY:
        try:
            out.append(_load(name))
        except PackUnavailable:
            continue
    return out


def pack_problems() -> dict[str, str]:
    """Every registered game whose pack cannot be used, with why (`dosverify --version` lists them)."""
    out = {}
    for name in REGISTRY:
        try:
            _load(name)
        except PackUnavailable as exc:
            out[name] = str(exc)
    return out


@cache
def default_game() -> str:
    """The game meant when none is named (`--game`, `?game=`, a log whose first word names no game):
    the usable pack of the lowest ``default_rank``, then name. No game is named here: the packs say."""
    ranked = []
    for name in REGISTRY:
        try:
            ranked.append((_load(name).default_rank, name))
        except PackUnavailable:
            continue
    if not ranked:
        raise UnknownGame(f"no game is installed: no pack of the entry-point group `{GROUP}` loads")
    return min(ranked)[1]


def pack_of_log(source: str | bytes | dict[str, Any] | list[Any], game: str | None = None) -> GamePack:
    """The pack that reads `source`: `game` when given (UnknownGame if no pack has it), else the
    game the log names (:func:`log_game`; PackUnavailable when its pack cannot be used), else the
    default game's (whose reader says what is wrong with the header)."""
    return find_game(game if game is not None else log_game(source))


def usable_pack_of_log(source: str | bytes | dict[str, Any] | list[Any]) -> GamePack | None:
    """The usable pack of the game a log names (:func:`log_game`); None when it names none, or its
    pack cannot be used (the log's report then says so)."""
    named = log_game(source)
    if named is None:
        return None
    try:
        return find_game(named)
    except PackUnavailable:
        return None


def find_game(name: str | None = None) -> GamePack:
    """The pack of the game `name` (default: :func:`default_game`); UnknownGame names the games
    there are, PackUnavailable says why a registered game's pack cannot be used."""
    key = default_game() if name is None else name.strip().lower()
    if key not in REGISTRY:
        raise UnknownGame(f"unknown game `{name}` (known: {', '.join(REGISTRY)})")
    return _load(key)


_set_locator()
