"""The organiser's web page now lives in :mod:`dosverify.service.routers.web`; these names stay
importable here for those who used them."""

from __future__ import annotations

from .service.routers.web import DOCS_CSP, PAGE_CSP, STATIC_DIR

__all__ = ["DOCS_CSP", "PAGE_CSP", "STATIC_DIR"]
