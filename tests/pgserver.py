"""A real PostgreSQL server for the store's tests: Debian's `postgresql` package, a cluster made
with `initdb` in a temporary folder, started with `pg_ctl` on a free loopback port and stopped
at the end. As root, the server runs as the `postgres` user (it refuses to run as root).

Without PostgreSQL installed the tests that need it are skipped, except under CI (CI=true),
where .ci/run installs it and a missing server is a failure.
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

from liveserver import free_port


def pg_bin() -> Path | None:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"), key=lambda p: int(p.split("/")[4]))
    return Path(found[-1]).parent if found else None


class PgServer:
    """One throwaway cluster: ``url`` for SQLAlchemy, ``stop()``/``start()`` to take it away and
    bring it back (the same data, the same port), ``close()`` to remove it."""

    def __init__(self) -> None:
        bindir = pg_bin()
        if bindir is None:
            raise FileNotFoundError("PostgreSQL is not installed (apt-get install postgresql)")
        self.bin = bindir
        self.root = Path(tempfile.mkdtemp(prefix="dosverify-pg-"))
        self.data = self.root / "data"
        self.port = free_port()
        self.user = None
        if os.geteuid() == 0:
            self.user = "postgres"
            pw = pwd.getpwnam(self.user)
            os.chown(self.root, pw.pw_uid, pw.pw_gid)
        self._run("initdb", "-D", str(self.data), "-U", "dosverify", "--auth=trust", "-E", "UTF8", "--no-sync")
        self.start()
        self._run("createdb", "-h", "127.0.0.1", "-p", str(self.port), "-U", "dosverify", "store")
        self.url = f"postgresql+psycopg://dosverify@127.0.0.1:{self.port}/store"

    def _run(self, tool: str, *args: str) -> None:
        cmd = [str(self.bin / tool), *args]
        if self.user:
            cmd = ["runuser", "-u", self.user, "--", *cmd]
        subprocess.run(cmd, check=True, capture_output=True, cwd=self.root)

    def start(self) -> None:
        opts = f"-c listen_addresses=127.0.0.1 -p {self.port} -k {self.root} -c max_connections=200 -c fsync=on"
        self._run("pg_ctl", "-D", str(self.data), "-o", opts, "-l", str(self.root / "log"), "-w", "-t", "60", "start")

    def stop(self, mode: str = "fast") -> None:
        self._run("pg_ctl", "-D", str(self.data), "-m", mode, "-w", "-t", "60", "stop")

    def new_database(self, name: str) -> str:
        """A fresh empty database in the cluster, for a test that migrates from nothing."""
        self._run("createdb", "-h", "127.0.0.1", "-p", str(self.port), "-U", "dosverify", name)
        return f"postgresql+psycopg://dosverify@127.0.0.1:{self.port}/{name}"

    def close(self) -> None:
        try:
            self.stop("immediate")
        except subprocess.CalledProcessError:
            pass
        for _ in range(20):
            try:
                shutil.rmtree(self.root)
                return
            except OSError:
                time.sleep(0.1)
