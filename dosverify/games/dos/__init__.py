"""DOS (Mattel, 2017), notation `dos 1`: the first game pack. See pack.py."""

from .pack import PACK

__all__ = ["PACK"]
