"""What the page's browser tests share: Debian's chromium through Playwright (skipped without
them, except under CI, which installs both), a live `dosverify serve`, and a page that fails its
test on a script error or a request that leaves the server."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

CHROMIUM = os.environ.get("DOSVERIFY_CHROMIUM", "/usr/bin/chromium")
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"]


def need(ok: bool, why: str) -> None:
    """Skip the module when `ok` is false; under CI, fail it (CI installs what it needs)."""
    if not ok:
        if os.environ.get("CI"):
            pytest.fail(f"{why} (CI installs it: see .ci/run)")
        pytest.skip(why, allow_module_level=True)


try:
    from playwright.sync_api import expect, sync_playwright
except ImportError:  # pragma: no cover - the test extra installs it
    expect = sync_playwright = None
need(sync_playwright is not None, "Playwright for Python is not installed")
need(Path(CHROMIUM).exists(), f"no chromium at {CHROMIUM}")


@contextmanager
def chromium() -> Iterator:
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            yield b
        finally:
            b.close()


def loaded(pg) -> None:
    """Wait until the page has the games (GET /v1/games): their options and examples are drawn."""
    expect(pg.locator("#example-list button").first).to_be_attached(timeout=20_000)


@contextmanager
def guarded_page(browser, server: str) -> Iterator:
    """A page of the server at 1280x900, its games loaded; on leaving, no request went elsewhere and no
    script failed."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    outside, errors = [], []

    def route(r):
        url = r.request.url
        if url.startswith(server + "/") or url.startswith(("blob:", "data:")):
            r.continue_()
        else:
            outside.append(url)
            r.abort()

    context.route("**/*", route)
    pg = context.new_page()
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.goto(server + "/")
    loaded(pg)
    yield pg
    context.close()
    assert not outside, f"requests left the machine: {outside}"
    assert not errors, f"script errors on the page: {errors}"
