"""The organiser's record of an event: every audit kept (the bytes as sent, their SHA-256, the
report and what it was judged under), events with their players, and standings by each game's
own rules. Game-free: games are reached only through :func:`dosverify.api.check` and
:func:`dosverify.games.find_game` (a pack's ``result``).

SQLite by default (``events.db`` in the data folder: ``--data DIR`` or ``DOSVERIFY_DATA``), any
SQLAlchemy URL otherwise (``--database-url`` or ``DOSVERIFY_DATABASE_URL``: PostgreSQL through
psycopg 3). The schema is migrated by Alembic when the store opens.

Nothing is imported here: the command line builds its parser from :mod:`.cli` without paying
for SQLAlchemy (``dosverify check``'s cold start); use ``dosverify.store.db`` and friends.
"""
