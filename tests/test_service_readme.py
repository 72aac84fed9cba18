"""README's `ledger serve` session runs as written (#12): its curl commands against the real
server, in a shell, with the answers it says they give."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.test_service_race import start_server, stop_server

ROOT = Path(__file__).resolve().parent.parent


def _session() -> list[str]:
    """The shell block of README's "Serving games live", its continued lines joined."""
    readme = (ROOT / "README.md").read_text("utf-8")
    part = readme.split("## Serving games live", 1)[1]
    block = re.search(r"```sh\n(.*?)```", part, re.S).group(1)
    return [line for line in block.replace("\\\n", " ").splitlines() if line.strip()]


@pytest.mark.skipif(not (shutil.which("curl") and shutil.which("jq") and shutil.which("bash")),
                    reason="the README's session needs curl, jq and bash")
def test_the_readme_session_runs_against_the_real_server(tmp_path):
    lines = _session()
    assert lines[0].startswith("ledger serve --db club.duckdb &")
    proc, base = start_server(tmp_path / "club.duckdb")
    try:
        script = []
        for line in lines[1:]:
            if line.startswith("S="):
                line = f"S={base}"                   # the server this test started
            line = re.sub(r"\s+#.*$", "", line)          # its comment
            if line.startswith("curl -s -N"):
                line = line.replace("curl -s -N", "curl -s -N --max-time 3") + " || true"
            script.append(line)
        run = subprocess.run(["bash", "-euc", "\n".join(script)], cwd=tmp_path, text=True,
                             capture_output=True, timeout=120)
    finally:
        stop_server(proc)
    out = run.stdout
    assert run.returncode == 0, run.stderr
    assert '"findings":[]' in out and '"head":{"seq":1,"next_seq":2,"hash":null}' in out
    assert '"payload":{"amount":"hidden"}' in out          # the spectator's read
    assert '"seat":"blue"' in out                          # blue's view
    assert '"code":"stale-seq"' in out and '"next_seq":2' in out
    assert "id: 0" in out and "id: 1" in out               # the stream
