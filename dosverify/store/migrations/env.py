"""Alembic's environment for the store: always run programmatically (dosverify.store.db.migrate),
on the connection it is handed."""

from alembic import context

from dosverify.store.schema import metadata

connection = context.config.attributes["connection"]
context.configure(connection=connection, target_metadata=metadata, render_as_batch=True)
with context.begin_transaction():
    context.run_migrations()
