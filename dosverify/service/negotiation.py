"""Content negotiation: the form a body declares (its Content-Type) and the form the client
asks for (its Accept)."""

from __future__ import annotations

from starlette.requests import Request

from .errors import PROBLEM_MEDIA_TYPE, Problem, ServiceError, loc

TEXT_REPORT_RESPONSE = {
    "description": "The report (JSON), or with `Accept: text/plain` the compiler-style text "
    "report `dosverify check` prints",
    "content": {"text/plain": {"schema": {"type": "string"}}},
}


def media_type(request: Request) -> tuple[str, dict[str, str]]:
    raw = request.headers.get("content-type", "")
    parts = [p.strip() for p in raw.split(";")]
    params = {}
    for p in parts[1:]:
        if "=" in p:
            k, v = p.split("=", 1)
            params[k.strip().lower()] = v.strip().strip('"')
    return parts[0].lower(), params


def _text_charset_ok(params: dict[str, str]) -> None:
    charset = params.get("charset", "utf-8").lower()
    if charset not in ("utf-8", "utf8", "us-ascii", "ascii"):
        raise ServiceError(
            415,
            "unsupported-media-type",
            f"the notation is UTF-8 text; charset `{charset}` is not accepted",
            [
                Problem(
                    location=loc("header", name="content-type"),
                    message="send `Content-Type: text/plain; charset=utf-8` (or no charset)",
                )
            ],
        )


def form_of(request: Request, allowed: tuple[str, ...]) -> str:
    """The form a body declares: "text" (text/plain), "json" (application/json, */*+json) or
    "multipart"; anything else is a 415 naming what is accepted."""
    mt, params = media_type(request)
    form = None
    if mt == "text/plain":
        _text_charset_ok(params)
        form = "text"
    elif mt == "application/json" or (mt.startswith("application/") and mt.endswith("+json")):
        form = "json"
    elif mt == "multipart/form-data":
        form = "multipart"
    if form not in allowed:
        accepted = {"text": "text/plain", "json": "application/json", "multipart": "multipart/form-data"}
        names = ", ".join(accepted[a] for a in allowed)
        shown = mt or "no Content-Type"
        raise ServiceError(
            415,
            "unsupported-media-type",
            f"{shown} is not accepted here (accepted: {names})",
            [Problem(location=loc("header", name="content-type"), message=f"use one of: {names}")],
        )
    return form


def accept_q(accept: str, media: str) -> float:
    """The quality the Accept header gives `media` (its most specific matching range), 0 if none."""
    major = media.split("/")[0]
    best, best_rank = 0.0, -1
    for part in accept.split(","):
        fields = [f.strip() for f in part.split(";")]
        rng = fields[0].lower()
        q = 1.0
        for f in fields[1:]:
            if f.lower().startswith("q="):
                try:
                    q = float(f[2:])
                except ValueError:
                    q = 0.0
        rank = 2 if rng == media else 1 if rng == f"{major}/*" else 0 if rng == "*/*" else -1
        if rank > best_rank:
            best, best_rank = q, rank
    return best if best_rank >= 0 else 0.0


def prefers_text(request: Request) -> bool:
    """Whether the client asks for `text/plain` over JSON (`Accept: text/plain`, as curl users
    write it); no Accept header, `*/*` or a tie keeps JSON."""
    accept = request.headers.get("accept", "")
    if not accept:
        return False
    return accept_q(accept, "text/plain") > max(
        accept_q(accept, "application/json"), accept_q(accept, PROBLEM_MEDIA_TYPE)
    )
