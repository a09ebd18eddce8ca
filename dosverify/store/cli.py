"""`dosverify event ...`: an event's audits kept in the store, from the command line.

Plugged into dosverify/cli.py with one line at the subcommand registration
(:func:`add_event_parser`) and one at `serve` (:func:`add_serve_options`).
"""

from __future__ import annotations

import argparse
import csv
import io
import json
import os
import sys
from pathlib import Path

from ..hints import plural

EXPORT_INDEX = "index.jsonl"
EXPORT_EVENT = "event.json"


def add_event_parser(subparsers) -> argparse.ArgumentParser:
    """`dosverify event COMMAND`: create, add, list, show, standings, report, export, import,
    alias, recompute."""
    db = argparse.ArgumentParser(add_help=False)
    db.add_argument(
        "--data",
        metavar="DIR",
        help="the data folder of the SQLite store (default $DOSVERIFY_DATA or ./dosverify-data)",
    )
    db.add_argument(
        "--database-url",
        metavar="URL",
        help="a database URL instead (postgresql://...; default $DOSVERIFY_DATABASE_URL)",
    )
    ev = subparsers.add_parser("event", help="keep an event's audits, standings and report (`dosverify event --help`)")
    sub = ev.add_subparsers(dest="event_command", metavar="COMMAND", required=True)
    cr = sub.add_parser("create", parents=[db], help="create an event (of one game, unless --mixed)")
    cr.add_argument("name")
    cr.add_argument(
        "--mixed",
        action="store_true",
        help="the event holds logs of several games (one table of standings per game); "
        "without it, the event holds its first log's game and refuses another's",
    )
    add = sub.add_parser(
        "add", parents=[db], help="audit logs into an event; exit 1 if one is illegal, 2 if one cannot be read"
    )
    add.add_argument("event", help="the event's name or id")
    add.add_argument("paths", nargs="+", metavar="FILE|DIR")
    add.add_argument(
        "--progress",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="a progress bar (default: on a terminal)",
    )
    sub.add_parser("list", parents=[db], help="list the events")
    show = sub.add_parser("show", parents=[db], help="an event's games with their verdicts and results")
    show.add_argument("event")
    st = sub.add_parser("standings", parents=[db], help="an event's standings")
    st.add_argument("event")
    st.add_argument("--format", choices=("text", "json", "csv"), default="text")
    _ranking_options(st)
    rep = sub.add_parser("report", parents=[db], help="write the event's self-contained HTML report")
    rep.add_argument("event")
    rep.add_argument("-o", "--output", required=True, metavar="FILE.html")
    _ranking_options(rep)
    ex = sub.add_parser("export", parents=[db], help="write the event's logs and a JSON Lines index to DIR")
    ex.add_argument("event")
    ex.add_argument("dir")
    im = sub.add_parser("import", parents=[db], help="read an event back from what `event export` wrote")
    im.add_argument("dir")
    al = sub.add_parser("alias", parents=[db], help="count a name written in some logs as another player")
    al.add_argument("event")
    al.add_argument("alias", help="the name as some logs write it")
    al.add_argument("player", help="the player it is")
    rc = sub.add_parser(
        "recompute", parents=[db], help="judge every audit again under the installed spec (both reports kept)"
    )
    rc.add_argument("event")
    ev.set_defaults(func=run_event)
    return ev


def _ranking_options(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--tie-break",
        default=None,
        metavar="KEYS",
        help="the rank order, comma-separated from wins, points, rounds_won, games, illegal (default wins,points,illegal: "
        "more wins, then the better points by the game's rule (more in DOS, fewer in UNO Duo), then fewer illegal games)",
    )
    p.add_argument("--count-illegal", action="store_true", help="count illegal games in games, wins, rounds and points")


def add_serve_options(p: argparse.ArgumentParser) -> None:
    """`serve --data DIR --database-url URL --token-file FILE`: the store the service keeps events in."""
    p.add_argument("--data", metavar="DIR", help="the data folder of the event store (default $DOSVERIFY_DATA)")
    p.add_argument("--database-url", metavar="URL", help="the event store's database (default $DOSVERIFY_DATABASE_URL)")
    p.add_argument(
        "--token-file",
        metavar="FILE",
        help="the bearer token that writes to events need, one line (default $DOSVERIFY_TOKEN_FILE; none: writes refused)",
    )


def apply_serve_options(args) -> None:
    """The `serve` options as the environment the service's store reads (dosverify.store.routes).
    A token file that cannot be read, or a database URL that is not one, is a one-line error
    and exit 2 before anything starts."""
    token = getattr(args, "token_file", None) or os.environ.get("DOSVERIFY_TOKEN_FILE")
    try:
        if token and not Path(token).read_text(encoding="utf-8").strip():
            raise ValueError(f"the token file {token} is empty")
        url = getattr(args, "database_url", None)
        if url:
            from .db import check_url

            check_url(url)
    except (OSError, ValueError) as exc:
        print(f"dosverify serve: {exc}", file=sys.stderr)
        raise SystemExit(2) from exc
    for flag, var in (
        ("data", "DOSVERIFY_DATA"),
        ("database_url", "DOSVERIFY_DATABASE_URL"),
        ("token_file", "DOSVERIFY_TOKEN_FILE"),
    ):
        value = getattr(args, flag, None)
        if value:
            os.environ[var] = str(Path(value).resolve()) if flag != "database_url" else value


def run_event(args) -> int:
    """Say which store is used (on standard error: the outputs stay the data), then the command;
    an event not found says the store it was looked for in."""
    from .db import EventExists, NotFound, StoreUnavailable, database_url, open_store, where
    from .standings import BadOrder

    try:
        url = database_url(args.data, args.database_url)
        print(f"dosverify event: the store {where(url)}", file=sys.stderr)
        store = open_store(url=url)
    except (StoreUnavailable, ValueError) as exc:
        return _fail(str(exc))
    try:
        return COMMANDS[args.event_command](store, args)
    except NotFound as exc:
        return _fail(f"{exc} in the store {store.where}")
    except (EventExists, BadOrder, ValueError, StoreUnavailable) as exc:
        return _fail(str(exc))
    finally:
        store.close()


def _fail(msg: str) -> int:
    print(f"dosverify event: {msg}", file=sys.stderr)
    return 2


def _create(store, args) -> int:
    ev = store.create_event(args.name, mixed=args.mixed)
    print(f"{ev['name']}\t{ev['id']}" + ("\tmixed: one table of standings per game" if ev["mixed"] else ""))
    return 0


def _holds(ev: dict) -> str:
    """What games an event holds, in words."""
    from .db import game_title

    if ev["mixed"]:
        return "mixed"
    return game_title(ev["game"]) if ev["game"] else "no game yet"


def _list(store, args) -> int:
    from .db import readable

    for ev in store.list_events():
        print(f"{ev['name']}\t{ev['id']}\t{_games(ev['games'])}\t{_holds(ev)}\tcreated {readable(ev['created'])}")
    return 0


def _games(n: int) -> str:
    return f"{n} game" + ("" if n == 1 else "s")


def _show(store, args) -> int:
    from .db import game_title, readable
    from .standings import outcome

    ev = store.event(args.event)
    print(f"{ev['name']} ({ev['id']}): {_games(ev['games'])} ({_holds(ev)}), created {readable(ev['created'])}")
    for alias, player in sorted(ev["aliases"].items()):
        print(f"  alias {alias} = {player}")
    for g in store.games(ev["id"]):
        print(f"{g['name']}\t{game_title(g['game'])}\t{g['verdict']}\t{outcome(g['verdict'], g['result'])}\t{g['id']}")
    return 0


def _add(store, args) -> int:
    """Audit every log named or under a folder named; one line per file (or a bar on a terminal)."""
    from ..inputs import discover

    ev = store.event(args.event)
    items = list(discover(args.paths))
    worst = 0
    bar = _progress(len(items)) if (args.progress if args.progress is not None else sys.stderr.isatty()) else None
    for item in items:
        name = _name_of(item.path, args.paths)
        line, code = _add_one(store, ev["id"], item, name)
        worst = max(worst, code)
        if bar is None:
            print(line)
        else:
            bar.advance(line)
    if bar is not None:
        bar.close()
    return worst


def _add_one(store, event_id: str, item, name: str) -> tuple[str, int]:
    if item.empty:
        return f"{item.path}: no log in this folder", 2
    try:
        data = Path(item.path).read_bytes() if item.problem is None else None
    except OSError as exc:
        return f"{name}: cannot be read: {exc.strerror or exc}", 2
    if data is None:
        return f"{name}: cannot be read: {item.problem}", 2
    from .db import OtherGame

    try:
        audit, new = store.submit(event_id, data, name)
    except OtherGame as exc:
        return f"{name}: refused: {exc}", 2
    code = {"legal": 0, "illegal": 1}.get(audit["verdict"], 2)
    same = "" if new else f" (the same bytes as {audit['name']})"
    return f"{name}: {audit['verdict']}{same}\t{audit['id']}", code


def _name_of(path: str, roots: list[str]) -> str:
    """A file's name in the event: its path under the folder named, else as named."""
    for root in roots:
        if os.path.isdir(root):
            try:
                return Path(path).relative_to(root).as_posix()
            except ValueError:
                continue
    return path


class _progress:
    """rich's progress bar on standard error, imported only on a terminal."""

    def __init__(self, total: int) -> None:
        from rich.progress import Progress

        self.p = Progress(transient=False)
        self.p.start()
        self.task = self.p.add_task("auditing", total=total)

    def advance(self, line: str) -> None:
        self.p.update(self.task, advance=1, description=line.split("\t")[0][:60])

    def close(self) -> None:
        self.p.stop()


def _how(args) -> dict:
    from .standings import parse_order

    return {"order": parse_order(args.tie_break), "count_illegal": args.count_illegal}


def _standings(store, args) -> int:
    """One table per game (a mixed event has several), each in rank order under its game's rule;
    the JSON states each table's rule, the CSV is the rows alone with their game, table by table."""
    from .standings import FIELDS

    ev = store.event(args.event)
    how = _how(args)
    ranked = store.ranking(ev["id"], **how)
    if args.format == "json":
        doc = {"event": ev["id"], **{k: ranked[k] for k in ("standings", "points_better", "rules")}}
        print(json.dumps({**doc, "mixed": ev["mixed"], "tables": ranked["tables"]}, ensure_ascii=False))
    elif args.format == "csv":
        out = io.StringIO()
        w = csv.DictWriter(out, fieldnames=(*FIELDS, "game"), lineterminator="\n")
        w.writeheader()
        w.writerows(ranked["standings"])
        sys.stdout.write(out.getvalue())
    else:
        _standings_text(ev, how, ranked["tables"])
    return 0


def _standings_text(ev: dict, how: dict, tables: list[dict]) -> None:
    from .standings import rule_text

    counted = "counted" if how["count_illegal"] else "left out"
    per_game = "; one table per game" if len(tables) > 1 else ""
    print(f"{ev['name']}: ranked by {', '.join(how['order'])}; illegal games {counted}{per_game}")
    if not tables:
        print("no game with a result yet")
    for k, table in enumerate(tables):
        if k:
            print()
        print(f"points: {rule_text(table)}")
        print(f"{'#':>3}  {'player':<20} {'games':>5} {'wins':>5} {'rounds':>6} {'points':>7} {'illegal':>7}")
        for i, r in enumerate(table["standings"], 1):
            print(
                f"{i:>3}  {r['player']:<20} {r['games']:>5} {r['wins']:>5} {r['rounds_won']:>6} {r['points']:>7} {r['illegal']:>7}"
            )


def _report(store, args) -> int:
    from .html import render_event

    ev = store.event(args.event)
    page = render_event(store, ev, **_how(args))
    Path(args.output).write_text(page, encoding="utf-8")
    print(f"{args.output}: the report of {ev['name']} ({_games(ev['games'])})")
    return 0


def _export(store, args) -> int:
    """DIR/event.json (the event and its aliases), DIR/logs/ (each log's bytes as sent) and
    DIR/index.jsonl (one line per audit: its file, id, name, SHA-256, times and every report)."""
    ev, items = store.dump(args.event)
    root = Path(args.dir)
    (root / "logs").mkdir(parents=True, exist_ok=True)
    meta = {k: ev[k] for k in ("id", "name", "created", "game", "mixed", "aliases")}
    (root / EXPORT_EVENT).write_text(json.dumps(meta, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
    with open(root / EXPORT_INDEX, "w", encoding="utf-8") as index:
        for audit, data in items:
            ext = ".json" if audit["form"] == "json" or data.lstrip()[:1] in (b"{", b"[") else ".log"
            rel = f"logs/{audit['seq']:05d}-{audit['sha256'][:12]}{ext}"
            (root / rel).write_bytes(data)
            index.write(json.dumps({"file": rel, **audit}, ensure_ascii=False, separators=(",", ":")) + "\n")
    print(f"{args.dir}: {ev['name']}, {plural(len(items), 'audit')}")
    return 0


def _import(store, args) -> int:
    root = Path(args.dir)
    try:
        ev = json.loads((root / EXPORT_EVENT).read_text(encoding="utf-8"))
        items = []
        for line in (root / EXPORT_INDEX).read_text(encoding="utf-8").splitlines():
            if line.strip():
                meta = json.loads(line)
                items.append((meta, (root / meta.pop("file")).read_bytes()))
    except (OSError, ValueError, KeyError) as exc:
        return _fail(f"{args.dir} is not an export of `dosverify event export`: {exc}")
    got = store.load(ev, items)
    print(f"{got['name']}\t{got['id']}\t{plural(got['games'], 'audit')}")
    return 0


def _alias(store, args) -> int:
    ev = store.event(args.event)
    store.merge_alias(ev["id"], args.alias, args.player)
    print(f"{ev['name']}: {args.alias} counts as {args.player}")
    return 0


def _recompute(store, args) -> int:
    ev = store.event(args.event)
    changed = 0
    for g in store.games(ev["id"]):
        after = store.recompute(g["id"])
        changed += after["judged"] != g["judged"]
    print(f"{ev['name']}: {changed} of {plural(ev['games'], 'audit')} judged anew")
    return 0


COMMANDS = {
    "create": _create,
    "add": _add,
    "list": _list,
    "show": _show,
    "standings": _standings,
    "report": _report,
    "export": _export,
    "import": _import,
    "alias": _alias,
    "recompute": _recompute,
}
