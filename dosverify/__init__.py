"""dosverify: a referee for DOS game logs, against a versioned rules specification."""

__version__ = "0.1.0"
