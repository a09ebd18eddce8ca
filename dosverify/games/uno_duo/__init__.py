"""UNO Duo, the second game pack (the pack itself, PACK, comes with the referee's branch)."""
