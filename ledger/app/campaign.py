"""`ledger campaign ...`'s work: a campaign from its file or from the games of it in a store,
a new campaign's world (customized by its ruleset's campaign hooks, saved to a file or recorded
in a store), and simulated campaigns. ledger/campaign.py does the judging and the linking; this
decides where a campaign is and turns options into its calls."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Optional

from engine.core.errors import LedgerError

from ledger import exitcodes
from ledger.app.db import open_db
from ledger.app.errors import UsageError
from ledger.campaign import CampaignError


class WorldRefused(CampaignError):
    """A new campaign's world that its ruleset's hooks refuse (a power or a sticker that does
    not exist, stickers that do not add up): `problems`, one message each; exit 1."""

    exit_code = exitcodes.FINDINGS

    def __init__(self, problems: list[str]):
        self.problems = list(problems)
        super().__init__("; ".join(self.problems))


def new_campaign(name: str, seed: int, powers: Optional[str], stickers: Optional[str], *,
                 ruleset: Optional[str] = None, out: Optional[Path] = None,
                 db: Optional[str] = None) -> tuple[Any, Any, Any]:
    """Start campaign `name`: its world customized "Before your first game" by its ruleset's
    campaign hooks (`powers`, `stickers` as `faction=power,...` and `card=count,...` texts;
    None: from `seed`), saved to `out` (default NAME.campaign.json) or, with `db`, recorded in
    that store. (the hooks, the campaign, where it is: the file's path or `db`). UsageError for
    a file that exists or bad options, WorldRefused for a world the rules refuse, StoreError or
    LedgerError (exit 2) when it cannot be written."""
    from ledger.campaign import SUFFIX, save_campaign
    hooks = campaign_hooks(ruleset)
    path: Any = out or Path(f"{name}{SUFFIX}")
    if db is None and path.exists():
        raise UsageError(f"{path} exists; a campaign is created once")
    problems, c = hooks.customize(name, seed, pairs(powers, "--powers"),
                                  pairs(stickers, "--stickers") if stickers else None, None)
    if problems:
        raise WorldRefused(problems)
    if db is not None:
        create_in_store(db, c)
        return hooks, c, db
    try:
        save_campaign(c, path)
    except OSError as exc:
        raise LedgerError(f"cannot write {path}: {exc}") from exc
    return hooks, c, path


def pairs(text: Optional[str], what: str) -> dict[str, str]:
    """`text` "k=v,k=v" as a dict ({} for None or ""); UsageError naming option `what` else."""
    if not text:
        return {}
    out = {}
    for part in text.split(","):
        key, sep, value = part.partition("=")
        if not sep or not key.strip() or not value.strip():
            raise UsageError(f"{what} is a comma-separated list of key=value, not {text!r}")
        out[key.strip()] = value.strip()
    return out


def load(arg: str):
    """(the campaign file `arg` names, the campaign in it); CampaignError (exit 2) when it
    cannot be read."""
    from ledger.campaign import campaign_path, load_campaign
    path = campaign_path(arg)
    return path, load_campaign(path)


def store_of(arg: str, db: Optional[str]) -> Optional[str]:
    """The store to read campaign `arg` from, or None to read a campaign file. With --db, `arg`
    is a campaign of the store, unless the store knows no such campaign and `arg` (or
    NAME.campaign.json) is a file. Without it, a file (or a *.json name) is a campaign file, else
    NAME.campaign.json, else ./ledger.duckdb if present. A directory is never a campaign file
    (#16: a folder `earth/` beside the store shadowed the stored campaign `earth`)."""
    from ledger.campaign import campaign_path
    given = Path(arg)
    if db is not None:
        if (given.is_file() or campaign_path(arg).is_file()) and not store_knows(db, arg):
            return None
        return db
    if given.suffix == ".json" or given.is_file():
        return None
    if campaign_path(arg).is_file() or not Path("ledger.duckdb").is_file():
        return None
    return "ledger.duckdb"


def store_knows(db: str, name: str) -> bool:
    from ledger.store import StoreError, open_store
    try:
        with open_store(db, read_only=True) as store:
            return any(c.name == name for c in store.campaigns())
    except StoreError:
        return False


def with_store(db: str, work):
    """Run `work(store)` on the store opened read-only; a campaign it does not know is a
    CampaignError (exit 2), a store that cannot be opened a StoreError (exit 2)."""
    store = open_db(db, read_only=True)
    try:
        return work(store)
    finally:
        store.close()



def campaign_hooks(ruleset: Optional[str]):
    """The campaign hooks of `ruleset` (None: the one ruleset that plays campaigns)."""
    from ledger.campaign import CampaignError, hooks_of
    try:
        return hooks_of(ruleset)
    except CampaignError as exc:
        raise UsageError(str(exc)) from exc


def create_in_store(db: str, c) -> None:
    """Record campaign `c`'s first world in the store `db`: UsageError (exit 2) when the store
    refuses it (a campaign of that name exists), StoreError when it cannot be opened."""
    from ledger.store import StoreError
    hooks = campaign_hooks(c.ruleset)
    store = open_db(db)
    try:
        store.create_campaign(c.name, c.ruleset, hooks.world_doc(c.world0),
                              hooks.world_digest(c.world0), c.setup)
    except StoreError as exc:
        raise UsageError(str(exc)) from exc
    finally:
        store.close()



def simulate_campaign(name: str, games: int, seed: int, out_dir: Path, ruleset: Optional[str] = None
                      ) -> tuple[object, list[Path]]:
    """Write a simulated campaign's games as game-01.jsonl, game-02.jsonl, ... into `out_dir`:
    (the campaign before game 1, the paths)."""
    from ledger.campaign import hooks_of
    from replay.logfile import write_log

    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    c, played = hooks_of(ruleset).simulate(name, games, seed)
    paths = []
    for i, game in enumerate(played, 1):
        path = out_dir / f"game-{i:02d}.jsonl"
        write_log(path, game.envelopes)
        paths.append(path)
    return c, paths
