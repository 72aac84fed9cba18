"""A real PostgreSQL server for the tests: started once per session with scripts/pg-cluster.sh
(a throwaway cluster on 127.0.0.1, in a temporary folder, stopped at the end), or the one named
by $LEDGER_TEST_PG_URL (a superuser's URL: each test gets a database of its own, dropped after).
Under pytest-xdist each worker is a session: each starts its own cluster (its own folder and
free port), and on a shared server the databases' random names keep the workers apart.

Where no server can be started the PostgreSQL tests are skipped, saying why; on CI (env CI set)
that is a failure instead, so the store contract never silently runs on DuckDB alone.

Test modules import the fixtures they use: `from tests.pg_support import pg_server, pg_url`.
"""

from __future__ import annotations

import os
import subprocess
import uuid
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "scripts" / "pg-cluster.sh"


@dataclass
class PgServer:
    url: str                   # a superuser's URL of the server's `ledger` database
    folder: str | None         # the cluster's folder, when this session started it

    def database_url(self, name: str) -> str:
        """The server's URL naming database `name` (its query string kept)."""
        base, _, query = self.url.partition("?")
        return base.rsplit("/", 1)[0] + "/" + name + (f"?{query}" if query else "")

    def create_database(self) -> str:
        """A new empty database; its URL."""
        import psycopg
        name = f"t_{uuid.uuid4().hex[:12]}"
        with psycopg.connect(self.url, autocommit=True) as con:
            con.execute(f'CREATE DATABASE "{name}"')
        return self.database_url(name)

    def drop_database(self, url: str) -> None:
        import psycopg
        name = url.partition("?")[0].rsplit("/", 1)[1]
        with psycopg.connect(self.url, autocommit=True) as con:
            con.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def _unavailable(reason: str) -> None:
    if os.environ.get("CI"):
        pytest.fail(f"PostgreSQL tests cannot run on CI: {reason}", pytrace=False)
    pytest.skip(f"no PostgreSQL server: {reason}")


@pytest.fixture(scope="session")
def pg_server():
    """The session's PostgreSQL server (see the module doc); skipped (failed on CI) if none."""
    try:
        import psycopg  # noqa: F401
    except ImportError as exc:
        _unavailable(f"psycopg is not installed ({exc}); pip install -e '.[dev]'")
    given = os.environ.get("LEDGER_TEST_PG_URL")
    if given:
        yield PgServer(given, None)
        return
    try:
        started = subprocess.run(["bash", str(SCRIPT), "start", "--fast"], capture_output=True,
                                 text=True, timeout=180)
    except (OSError, subprocess.TimeoutExpired) as exc:
        _unavailable(f"{SCRIPT.name} could not run ({exc})")
    if started.returncode != 0:
        _unavailable(f"{SCRIPT.name} start failed: {started.stderr.strip()[-500:]}")
    env = dict(line.split("=", 1) for line in started.stdout.split() if "=" in line)
    server = PgServer(env["LEDGER_PG_URL"], env["LEDGER_PG_DIR"])
    try:
        yield server
    finally:
        subprocess.run(["bash", str(SCRIPT), "stop", server.folder], capture_output=True,
                       timeout=120)


@pytest.fixture
def pg_url(pg_server):
    """The URL of a new, empty database on the session's server (dropped after the test)."""
    url = pg_server.create_database()
    try:
        yield url
    finally:
        pg_server.drop_database(url)
