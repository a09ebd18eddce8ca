"""The suite's layout: core/ (what knows no game), games/ (the contract every pack passes), and a
folder per game. tests/ itself is on sys.path for the helpers shared by all (liveserver)."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
