"""The plain-text table every benchmark script prints (bench/run.py, bench/load.py,
bench/profile_scale.py): one printer, so their tables read alike."""

from __future__ import annotations

import sys


def print_table(
    head: list[str], body: list[list], right: set[int] = frozenset(), breaks: set[int] = frozenset(), out=sys.stdout
) -> None:
    """`head`, a rule of dashes, then the `body` rows; columns as wide as their widest cell, those
    in `right` aligned right; a blank line before each row index in `breaks`."""
    w = [max(len(str(x[i])) for x in body + [head]) for i in range(len(head))]

    def line(cells):
        return "  ".join(str(c).rjust(w[i]) if i in right else str(c).ljust(w[i]) for i, c in enumerate(cells)).rstrip()

    print(line(head), file=out)
    print("  ".join("-" * x for x in w), file=out)
    for i, cells in enumerate(body):
        if i in breaks:
            print(file=out)
        print(line(cells), file=out)
