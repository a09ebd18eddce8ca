"""issue 20 item 1: a face-down card is its own type (events.FaceDown), so the type checker finds every
place that hands one to a card function. mypy over the DOS pack: no error names FaceDown (the pack has
other, older typing gaps, mostly the referee's mixins; this test looks only at face-down cards)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.slow  # a mypy run of its own; CI's mypy pass covers the package too
def test_no_face_down_card_reaches_a_card_function(tmp_path):
    pytest.importorskip("mypy")
    pack = ROOT / "dosverify" / "games" / "dos"
    modules = []
    for p in sorted(list(pack.glob("*.py")) + list((pack / "referee").glob("*.py"))):
        rel = p.relative_to(ROOT).with_suffix("")
        parts = rel.parts[:-1] if rel.name == "__init__" else rel.parts
        if parts[-1] != "corpus":  # corpus.py reaches outside the package (a relative import mypy refuses)
            modules += ["-m", ".".join(parts)]
    r = subprocess.run(
        [
            sys.executable,
            "-m",
            "mypy",
            "--ignore-missing-imports",
            "--follow-imports=silent",
            "--check-untyped-defs",
            "--no-error-summary",
            f"--cache-dir={tmp_path}",
            *modules,
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert "error: No parent module" not in r.stdout, r.stdout[-2000:]
    # (FaceDownMixin's attributes live on the Referee it is mixed into: not about face-down cards)
    face_down = [ln for ln in r.stdout.splitlines() if "FaceDown" in ln.replace('"FaceDownMixin"', "")]
    assert not face_down, "\n".join(face_down)
