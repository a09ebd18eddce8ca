"""Reading a multipart batch as it streams in (python-multipart's push parser): every part's
raw bytes, a part over the per-log limit or beyond the item limit refused as soon as it is seen."""

from __future__ import annotations

from typing import TYPE_CHECKING

from starlette.requests import Request

from .errors import Problem, ServiceError, loc

if TYPE_CHECKING:
    from python_multipart.multipart import MultipartCallbacks


class Part:
    __slots__ = ("name", "filename", "content_type", "data")

    def __init__(self) -> None:
        self.name: str | None = None
        self.filename: str | None = None
        self.content_type: str | None = None
        self.data = bytearray()

    def form(self) -> str | None:
        """The part's form from its Content-Type (None: the referee tells from the first character)."""
        ct = self.content_type
        if ct and (ct == "application/json" or ct.endswith("+json")):
            return "json"
        return "text" if ct == "text/plain" else None


class _Stop(Exception):
    def __init__(self, error: ServiceError) -> None:
        self.error = error


def _too_big(i: int, p: Part, max_log_bytes: int) -> ServiceError:
    return ServiceError(
        413,
        "content-too-large",
        f"part {i} ({p.filename or p.name}) is over the limit of {max_log_bytes} bytes per log",
        [
            Problem(
                location=loc("body", item=i, name=p.filename or p.name),
                message=f"a log may have at most {max_log_bytes} bytes",
            )
        ],
    )


def _too_many(count: int, max_items: int) -> ServiceError:
    return ServiceError(
        413,
        "too-many-items",
        f"a batch holds at most {max_items} logs",
        [Problem(location=loc("body", item=count), message=f"part {count} is beyond the limit of {max_items} logs")],
    )


def _callbacks(parts: list[Part], max_log_bytes: int, max_items: int) -> MultipartCallbacks:
    from python_multipart.multipart import parse_options_header

    state: dict = {"hname": b"", "hval": b"", "headers": {}}

    def on_part_begin() -> None:
        if len(parts) >= max_items:
            raise _Stop(_too_many(len(parts), max_items))
        parts.append(Part())
        state["headers"] = {}

    def on_header_field(data: bytes, start: int, end: int) -> None:
        state["hname"] += data[start:end]

    def on_header_value(data: bytes, start: int, end: int) -> None:
        state["hval"] += data[start:end]

    def on_header_end() -> None:
        state["headers"][state["hname"].lower()] = state["hval"]
        state["hname"], state["hval"] = b"", b""

    def on_headers_finished() -> None:
        p = parts[-1]
        _, opts = parse_options_header(state["headers"].get(b"content-disposition", b""))
        p.name = opts[b"name"].decode("utf-8", "replace") if b"name" in opts else None
        p.filename = opts[b"filename"].decode("utf-8", "replace") if b"filename" in opts else None
        ct = state["headers"].get(b"content-type")
        p.content_type = ct.decode("latin-1").split(";")[0].strip().lower() if ct else None

    def on_part_data(data: bytes, start: int, end: int) -> None:
        p = parts[-1]
        p.data += data[start:end]
        if len(p.data) > max_log_bytes:
            raise _Stop(_too_big(len(parts) - 1, p, max_log_bytes))

    return {
        "on_part_begin": on_part_begin,
        "on_header_field": on_header_field,
        "on_header_value": on_header_value,
        "on_header_end": on_header_end,
        "on_headers_finished": on_headers_finished,
        "on_part_data": on_part_data,
    }


async def read_multipart(request: Request, max_log_bytes: int, max_items: int) -> list[Part]:
    """Every part of a multipart body as raw bytes (no decoding: a log's bytes reach the
    referee as sent)."""
    import python_multipart
    from python_multipart.multipart import parse_options_header

    _, params = parse_options_header(request.headers.get("content-type", ""))
    boundary = params.get(b"boundary")
    if not boundary:
        raise ServiceError(
            400,
            "bad-request",
            "multipart body without a boundary",
            [Problem(location=loc("header", name="content-type"), message="missing `boundary=`")],
        )
    parts: list[Part] = []
    parser = python_multipart.MultipartParser(boundary, _callbacks(parts, max_log_bytes, max_items))
    try:
        async for chunk in request.stream():
            parser.write(chunk)
        parser.finalize()
    except _Stop as stop:
        raise stop.error from None
    except python_multipart.exceptions.MultipartParseError as exc:
        raise ServiceError(
            400,
            "bad-request",
            f"the multipart body cannot be read: {exc}",
            [Problem(location=loc("body", offset=getattr(exc, "offset", None)), message=str(exc))],
        ) from exc
    return parts
