"""dosverify: a referee for card game logs (DOS, UNO Duo, each game a pack), against a versioned rules specification."""

__version__ = "0.1.0"
