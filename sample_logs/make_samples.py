"""Build the sample logs: game42 (a complete, hand-checked 4-player game that walks through the
rulebook's worked examples) and one broken copy of it per kind of finding.

    python sample_logs/make_samples.py              # rewrites game42 and its broken copies
    python sample_logs/make_samples.py --simulated  # also re-picks the simulated sample games
    python sample_logs/make_samples.py --variants   # also rebuilds the variant samples (var-*, their broken copies)

Every event of game42 is judged by the engine as it is written; the script stops at the first
violation, so the sample stays legal as the engine evolves. The story, round by round, is in
sample_logs/README.md.
"""

from __future__ import annotations

import copy
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from engine.core.events import Event  # noqa: E402
from engine.risk_europe import RULESET  # noqa: E402
from engine.risk_europe.board import default_data  # noqa: E402
from engine.risk_europe.chance import DrawError, draw_with  # noqa: E402
from engine.risk_europe.engine import mercenary_pool  # noqa: E402
from engine.risk_europe.events import PAYLOADS  # noqa: E402
from replay.logfile import format_line, make_envelope, seal  # noqa: E402

B, O, R, G = "blue", "orange", "red", "green"
T1, T2, TK = "tax-spend-1", "tax-spend-2", "tax-spend-king"
E1, E2, ES = "expand-maneuver-fortify-1", "expand-maneuver-fortify-2", "expand-maneuver-siege"
S1, S2 = "split-maneuver-1", "split-maneuver-2"
GAME_ID = "game42"
STAMP = "2026-03-14T19:00:00Z"


class Scenario:
    """Writes events and judges each one at once; any violation stops the script."""

    def __init__(self, game: str, players: list[str]):
        self.game = game
        self.envelopes: list[dict] = []
        start = {"ruleset": "risk-europe", "variant": "basic",
                 "players": [{"id": p} for p in players], "dice": {"mode": "table"}}
        self._add("GameStarted", None, start)
        self.state = RULESET.initial_state(PAYLOADS["GameStarted"].model_validate(start), default_data())

    def _add(self, type_, actor, payload):
        self.envelopes.append(make_envelope(self.game, len(self.envelopes), type_, actor, payload, at=STAMP))

    def e(self, type_: str, actor: str | None = None, **payload) -> "Scenario":
        if "from_" in payload:
            payload = {"from": payload.pop("from_"), **payload}
        event = Event(len(self.envelopes), type_, actor, PAYLOADS[type_].model_validate(payload))
        violations, nxt = RULESET.step(self.state, event)
        if violations:
            raise SystemExit(f"sample game42 is not legal at {type_} {payload}: "
                             f"{[v.as_dict() for v in violations]}")
        self.state = nxt
        self._add(type_, actor, payload)
        return self

    def close(self) -> None:
        """The last turn of a round ends without a further event (as at the end of a log)."""
        self.state = RULESET.conclude(self.state)


def rounds_1_to_6(g: Scenario) -> None:
    """Setup and rounds 1-6 of game42 (shared with the tie-break game)."""
    # setup
    g.e("BidPlaced",B,amount=2).e("BidPlaced",O,amount=1).e("BidPlaced",R,amount=0).e("BidPlaced",G,amount=0)
    g.e("KingdomPlaced",B,city="Berlin",footmen={"Saxony":5,"Bohemia":5},coins=4)
    g.e("KingdomPlaced",O,city="Kiev",footmen={"Rusland":6,"Galicia":4},coins=2)
    g.e("KingdomPlaced",R,city="Paris",footmen={"France":6,"Burgundy":4},coins=3)
    g.e("KingdomPlaced",G,city="Rome",footmen={"Rome":6,"Lombardy":4},coins=4)
    # round 1
    for p,c in [(B,[E1,S1]),(O,[E1,T1]),(R,[S1,T1]),(G,[E1,T1])]: g.e("CardsCommitted",p,cards=c)
    g.e("CardRevealed",B,card=E1).e("Expanded",B,from_="Bohemia",to="Poland",units={"footman":2})
    g.e("CardRevealed",O,card=E1).e("Expanded",O,from_="Galicia",to="Hungary",units={"footman":2})
    g.e("CardRevealed",R,card=S1).e("SplitExpanded",R,from_="France",moves=[{"to":"Normandy","units":{"footman":2}},{"to":"Brittany","units":{"footman":2}}])
    g.e("CardRevealed",G,card=E1).e("Expanded",G,from_="Lombardy",to="Swabia",units={"footman":2})
    g.e("CardRevealed",B,card=S1).e("SplitExpanded",B,from_="Saxony",moves=[{"to":"Lorraine","units":{"footman":2}},{"to":"Denmark","units":{"footman":1}}])
    g.e("CardRevealed",O,card=T1).e("Taxed",O,city="Kiev")
    g.e("CardRevealed",R,card=T1).e("Taxed",R,city="Paris")
    g.e("CardRevealed",G,card=T1).e("Taxed",G,city="Rome")
    for p,c in [(B,[E2,T1]),(O,[T2,ES]),(R,[E1,T2]),(G,[T2,S1])]: g.e("CardsCommitted",p,cards=c)
    g.e("CardRevealed",B,card=E2).e("Expanded",B,from_="Lorraine",to="England",units={"footman":1}).e("Fortified",B,territory="Poland",footmen=3)
    g.e("CardRevealed",O,card=T2).e("Spent",O,purchases=[{"item":"siege","territory":"Rusland"},{"item":"archer","territory":"Rusland","count":2}],coins=14)
    g.e("CardRevealed",R,card=E1).e("Expanded",R,from_="Burgundy",to="Lorraine",units={"footman":3})
    g.e("CardRevealed",G,card=T2).e("Spent",G,purchases=[{"item":"crown_card"},{"item":"footman","territory":"Rome","count":8}],coins=18)
    g.e("CardRevealed",B,card=T1).e("Taxed",B,city="Berlin",coins=8)
    g.e("CardRevealed",O,card=ES).e("SiegeAssaulted",O,from_="Rusland",target="Poland").e("DiceRolled",O,rolls={"orange":[1,4]},territory="Poland")
    g.e("CasualtiesRemoved",B,territory="Poland",units={"footman":1})
    g.e("Expanded",O,from_="Rusland",to="Polotsk",units={"footman":2})
    g.e("CardRevealed",R,card=T2).e("Taxed",R,city="Paris",coins=6)
    g.e("CardRevealed",G,card=S1).e("SplitExpanded",G,from_="Rome",moves=[{"to":"Kingdom of Sicily","units":{"footman":3}},{"to":"Sardinia","units":{"footman":3}}])
    g.e("BattleStarted",B,territory="Lorraine").e("DiceRolled",None,rolls={"blue":[4],"red":[6,2,1]},territory="Lorraine",rank=4)
    g.e("CasualtiesRemoved",B,territory="Lorraine",units={"footman":1}).e("BattleEnded",None,territory="Lorraine",winner="red")
    for p,c in [(B,[T2,TK]),(O,[TK,E2]),(R,[TK,E2]),(G,[TK,E2])]: g.e("CardsCommitted",p,cards=c)
    g.e("CardRevealed",B,card=T2).e("Spent",B,purchases=[{"item":"castle","territory":"Poland"},{"item":"archer","territory":"Poland","count":5}],coins=19)
    g.e("CardRevealed",O,card=TK).e("Taxed",O,city="Kiev",coins=7)
    g.e("CardRevealed",R,card=TK).e("Taxed",R,city="Paris",coins=7)
    g.e("CardRevealed",G,card=TK).e("Taxed",G,city="Rome",coins=9)
    g.e("CardRevealed",B,card=TK).e("Taxed",B,city="Berlin",coins=8)
    g.e("CardRevealed",O,card=E2).e("Expanded",O,from_="Polotsk",to="Smolensk",units={"footman":1})
    g.e("CardRevealed",R,card=E2).e("Expanded",R,from_="Lorraine",to="Friesland",units={"footman":2})
    g.e("CardRevealed",G,card=E2).e("Expanded",G,from_="Lombardy",to="Burgundy",units={"footman":1})
    g.e("BattleStarted",B,territory="Burgundy").e("DiceRolled",None,rolls={"red":[5],"green":[5]},rank=4)
    g.e("CasualtiesRemoved",G,territory="Burgundy",units={"footman":1})
    for p,c in [(B,[S2,ES]),(O,[S1,S2]),(R,[ES,S2]),(G,[ES,S2])]: g.e("CardsCommitted",p,cards=c)
    g.e("CardRevealed",B,card=S2).e("Maneuvered",B,from_="Bohemia",to="Denmark",units={"footman":2})
    g.e("CardRevealed",O,card=S1).e("SplitExpanded",O,from_="Galicia",moves=[{"to":"Bulgaria","units":{"footman":1}}])
    g.e("CardRevealed",R,card=ES).e("Expanded",R,from_="Brittany",to="Ireland",units={"footman":1})
    g.e("CardRevealed",G,card=ES).e("Expanded",G,from_="Kingdom of Sicily",to="Venice",units={"footman":2})
    g.e("CardRevealed",B,card=ES).e("Expanded",B,from_="Denmark",to="Sweden",units={"footman":1})
    g.e("Maneuvered",B,from_="Saxony",to="Denmark",units={"footman":1})
    g.e("CardRevealed",O,card=S2).e("Maneuvered",O,from_="Polotsk",to="Rusland",units={"footman":0})
    g.e("CardRevealed",R,card=S2).e("Maneuvered",R,from_="France",to="Lorraine",units={"footman":2},path=[])
    g.e("CardRevealed",G,card=S2).e("Maneuvered",G,from_="Rome",to="Venice",units={"footman":3},path=["Kingdom of Sicily"])
    for p,c in [(B,[T1,E1]),(O,[T1,T2]),(R,[T1,E1]),(G,[T1,E1])]: g.e("CardsCommitted",p,cards=c)
    g.e("CardRevealed",B,card=T1).e("Spent",B,purchases=[{"item":"crown_card"},{"item":"archer","territory":"Poland"}],coins=12)
    g.e("CardRevealed",O,card=T1).e("Taxed",O,city="Kiev",coins=9)
    g.e("CardRevealed",R,card=T1).e("Spent",R,purchases=[{"item":"crown_card"},{"item":"castle","territory":"Lorraine"}],coins=22)
    g.e("CardRevealed",G,card=T1).e("Taxed",G,city="Rome",coins=10)
    g.e("CardRevealed",B,card=E1).e("Maneuvered",B,from_="Denmark",to="Bohemia",units={"footman":1}).e("Fortified",B,territory="Saxony",footmen=4)
    g.e("CardRevealed",O,card=T2).e("Spent",O,purchases=[{"item":"siege","territory":"Rusland"},{"item":"footman","territory":"Rusland","count":5}],coins=15)
    g.e("CardRevealed",R,card=E1).e("Expanded",R,from_="Lorraine",to="England",units={"footman":2})
    g.e("CardRevealed",G,card=E1).e("Expanded",G,from_="Venice",to="Hungary",units={"footman":4})
    g.e("BattleStarted",B,territory="England")
    g.e("DiceRolled",None,rolls={"blue":[4],"red":[2,1]},rank=4).e("CasualtiesRemoved",R,territory="England",units={"footman":1})
    g.e("DiceRolled",None,rolls={"blue":[3],"red":[3]},rank=4).e("CasualtiesRemoved",R,territory="England",units={"footman":1})
    g.e("BattleEnded",None,territory="England",winner="blue")
    g.e("BattleStarted",B,territory="Hungary")
    g.e("DiceRolled",None,rolls={"orange":[4,3],"green":[6,5,2]},rank=4).e("CasualtiesRemoved",O,territory="Hungary",units={"footman":2})
    g.e("BattleEnded",None,territory="Hungary",winner="green")
    for p,c in [(B,[T2,E2]),(O,[ES,S1]),(R,[T2,E2]),(G,[T2,E2])]: g.e("CardsCommitted",p,cards=c)
    g.e("CardRevealed",B,card=T2).e("Taxed",B,city="Berlin",coins=11)
    g.e("CardRevealed",O,card=ES).e("Expanded",O,from_="Rusland",to="Poland",units={"siege":2,"archer":2,"footman":8})
    g.e("CardRevealed",R,card=T2).e("Taxed",R,city="Paris")
    g.e("CardRevealed",G,card=T2).e("Taxed",G,city="Rome")
    g.e("CardRevealed",B,card=E2).e("Expanded",B,from_="Denmark",to="Norway",units={"footman":1})
    g.e("CardRevealed",O,card=S1)
    g.e("CardRevealed",R,card=E2).e("Maneuvered",R,from_="France",to="Normandy",units={"cavalry":2})
    g.e("CardRevealed",G,card=E2).e("Fortified",G,territory="Rome",footmen=4)
    g.e("BattleStarted",B,territory="Poland")
    # cycle 1 -- the rulebook's worked example, rank by rank
    g.e("DiceRolled",None,rolls={"orange":[1,2,3,5]},territory="Poland",rank=1)
    g.e("CasualtiesRemoved",B,territory="Poland",units={"footman":2})
    g.e("DiceRolled",None,rolls={"blue":[1,2,3,4,4,2],"orange":[5,6]},territory="Poland",rank=2)
    g.e("DiceRerolled",B,rolls={"blue":[3,4,5,5,5,6]},territory="Poland",rank=2)
    g.e("CasualtiesRemoved",O,territory="Poland",units={"footman":4})
    g.e("CasualtiesRemoved",B,territory="Poland",units={"footman":2})
    g.e("DiceRolled",None,rolls={"blue":[3,5],"orange":[3,3,6]},territory="Poland",rank=4)
    g.e("CasualtiesRemoved",O,territory="Poland",units={"footman":1})
    g.e("CasualtiesRemoved",B,territory="Poland",units={"archer":1})
    # cycle 2
    g.e("DiceRolled",None,rolls={"orange":[1,1,2,2]},territory="Poland",rank=1)
    g.e("DiceRolled",None,rolls={"blue":[5,6,5,1,2],"orange":[1,2]},territory="Poland",rank=2)
    g.e("CasualtiesRemoved",O,territory="Poland",units={"archer":2,"footman":1})
    g.e("DiceRolled",None,rolls={"blue":[6,4],"orange":[2,2,1]},territory="Poland",rank=4)
    g.e("CasualtiesRemoved",O,territory="Poland",units={"footman":2})
    # cycle 3
    g.e("DiceRolled",None,rolls={"orange":[1,2,1,2]},territory="Poland",rank=1)
    g.e("DiceRolled",None,rolls={"blue":[5,5,1,1,1]},territory="Poland",rank=2)
    g.e("CasualtiesRemoved",O,territory="Poland",units={"siege":2})
    g.e("BattleEnded",None,territory="Poland",winner="blue")


def game42() -> list[dict]:
    """The complete game, unsealed envelopes."""
    g = Scenario(GAME_ID, [B, O, R, G])
    rounds_1_to_6(g)
    # round 7: blue buys its second Crown Card and takes Buda from green: 7 crowns
    for p,c in [(B,[TK,ES]),(O,[TK,E1]),(R,[TK,ES]),(G,[TK,ES])]: g.e("CardsCommitted",p,cards=c)
    g.e("CardRevealed",B,card=TK).e("Spent",B,purchases=[{"item":"crown_card"}],coins=10)
    g.e("CardRevealed",O,card=TK).e("Taxed",O,city="Kiev")
    g.e("CardRevealed",R,card=TK).e("Taxed",R,city="Paris")
    g.e("CardRevealed",G,card=TK).e("Taxed",G,city="Rome")
    g.e("CardRevealed",B,card=ES).e("Expanded",B,from_="Poland",to="Hungary",units={"archer":3})
    g.e("CardRevealed",O,card=E1).e("Fortified",O,territory="Rusland",footmen=4)
    g.e("CardRevealed",R,card=ES)
    g.e("CardRevealed",G,card=ES)
    g.e("BattleStarted",G,territory="Hungary")
    g.e("DiceRolled",None,rolls={"blue":[5,6,5]},territory="Hungary",rank=2)
    g.e("CasualtiesRemoved",G,territory="Hungary",units={"footman":3})
    g.e("DiceRolled",None,rolls={"blue":[4,2,1],"green":[3]},territory="Hungary",rank=4)
    g.e("CasualtiesRemoved",G,territory="Hungary",units={"footman":1})
    g.e("BattleEnded",None,territory="Hungary",winner="blue").e("GameEnded",None,winner="blue")

    return g.envelopes


def tiebreak_game() -> list[dict]:
    """game42 up to round 6, then a quiet ending in which blue and green both reach 7 crowns at
    the end of round 9 and the tie-break (territories) decides."""
    g = Scenario("tiebreak", [B, O, R, G])
    rounds_1_to_6(g)
    # round 7: blue and green buy Crown Cards; everyone reveals King Me (green ends with the marker)
    for p, c in [(B, [TK, S1]), (O, [TK, E1]), (R, [TK, ES]), (G, [TK, S1])]:
        g.e("CardsCommitted", p, cards=c)
    g.e("CardRevealed", B, card=TK).e("Spent", B, purchases=[{"item": "crown_card"}], coins=10)
    g.e("CardRevealed", O, card=TK).e("Taxed", O, city="Kiev")
    g.e("CardRevealed", R, card=TK).e("Taxed", R, city="Paris")
    g.e("CardRevealed", G, card=TK).e("Spent", G, purchases=[{"item": "crown_card"}], coins=10)
    g.e("CardRevealed", B, card=S1).e("CardRevealed", O, card=E1).e("Fortified", O, territory="Rusland")
    g.e("CardRevealed", R, card=ES).e("CardRevealed", G, card=S1)
    # round 8: green starts; nobody attacks
    for p, c in [(G, [ES, S2]), (B, [ES, S2]), (O, [E2, S2]), (R, [S1, S2])]:
        g.e("CardsCommitted", p, cards=c)
    for card in (0, 1):
        for p, c in [(G, [ES, S2]), (B, [ES, S2]), (O, [E2, S2]), (R, [S1, S2])]:
            g.e("CardRevealed", p, card=c[card])
    # round 9: hands refilled; blue taxes then buys its third Crown Card, green buys its third
    for p, c in [(G, [T1, T2]), (B, [T1, T2]), (O, [T1, T2]), (R, [T1, T2])]:
        g.e("CardsCommitted", p, cards=c)
    g.e("CardRevealed", G, card=T1).e("Spent", G, purchases=[{"item": "crown_card"}], coins=10)
    g.e("CardRevealed", B, card=T1).e("Taxed", B, city="Berlin")
    g.e("CardRevealed", O, card=T1).e("Taxed", O, city="Kiev")
    g.e("CardRevealed", R, card=T1).e("Taxed", R, city="Paris")
    g.e("CardRevealed", G, card=T2).e("Taxed", G, city="Rome")
    g.e("CardRevealed", B, card=T2).e("Spent", B, purchases=[{"item": "crown_card"}], coins=10)
    g.e("CardRevealed", O, card=T2).e("Taxed", O, city="Kiev")
    g.e("CardRevealed", R, card=T2).e("Taxed", R, city="Paris")
    g.close()
    winner = g.state.result.winners
    g.e("GameEnded", None, winner=winner[0]) if len(winner) == 1 else g.e("GameEnded", None, winners=list(winner))
    return g.envelopes


# --- broken copies: each differs from game42 in one way ------------------------------------------

def _find(envs: list[dict], type_: str, actor=None, **match) -> int:
    for i, e in enumerate(envs):
        if e["type"] == type_ and (actor is None or e["actor"] == actor) and all(
                e["payload"].get(k) == v for k, v in match.items()):
            return i
    raise KeyError((type_, actor, match))


def _renumber(envs: list[dict]) -> list[dict]:
    for i, e in enumerate(envs):
        e["seq"] = i
    return envs


def _text(envs: list[dict]) -> str:
    return "".join(format_line(e) + "\n" for e in envs)


def _renamed(envs: list[dict], game: str) -> list[dict]:
    out = copy.deepcopy(envs)
    for e in out:
        e["game"] = game
    return out


def broken_variants(base0: list[dict]) -> dict[str, str]:
    """name -> file text. Each is game42 with one thing wrong (see sample_logs/README.md), under
    a game id of its own (game42-<what is wrong>), so that a store holds each beside game42."""
    out: dict[str, str] = {}

    def variant(name: str) -> tuple[list[dict], list[dict], str]:
        gid = f"game42-{name}"
        b = _renamed(base0, gid)
        return b, seal(b), gid

    # one die changed in the general attack of the Poland battle, line left as it was: the chain
    # catches the edit at that line
    base, sealed, gid = variant("die-edited")
    envs = copy.deepcopy(sealed)
    i = _find(envs, "DiceRolled", rank=4, rolls={"blue": [3, 5], "orange": [3, 3, 6]})
    envs[i]["payload"]["rolls"]["blue"] = [3, 6]
    out["broken-die-edited.jsonl"] = _text(envs)

    # the same die changed and the log re-sealed (a forger who recomputes the hashes): the rules
    # catch it, since blue's 6 ties orange's 6 and orange now owes two casualties
    base, sealed, gid = variant("die-resealed")
    envs = copy.deepcopy(base)
    envs[i]["payload"]["rolls"]["blue"] = [3, 6]
    out["broken-die-resealed.jsonl"] = _text(seal(envs))

    # blue plays expand-maneuver-fortify-1 twice in one cycle of the hand (round 2 instead of -2)
    base, sealed, gid = variant("card-twice")
    envs = copy.deepcopy(base)
    c = _find(envs, "CardsCommitted", B, cards=[E2, T1])
    envs[c]["payload"]["cards"] = [E1, T1]
    r = _find(envs, "CardRevealed", B, card=E2)
    envs[r]["payload"]["card"] = E1
    out["broken-card-twice.jsonl"] = _text(seal(envs))

    # orange maneuvers a Footman three territories (Bulgaria - Galicia - Rusland - Polotsk)
    base, sealed, gid = variant("maneuver-three")
    envs = copy.deepcopy(base)
    r = [k for k, e in enumerate(envs) if e["type"] == "CardRevealed" and e["actor"] == O
         and e["payload"]["card"] == S1][-1]
    envs.insert(r + 1, make_envelope(gid, 0, "Maneuvered", O,
                                     {"from": "Bulgaria", "to": "Polotsk", "units": {"footman": 1}}, at=STAMP))
    out["broken-maneuver-three.jsonl"] = _text(seal(_renumber(envs)))

    # red attacks blue's castle in Saxony with a Footman and no Siege Weapon; blue holds it
    base, sealed, gid = variant("castle-no-siege")
    envs = copy.deepcopy(base)
    m = _find(envs, "Maneuvered", R, to="Normandy")
    envs[m] = make_envelope(gid, 0, "Expanded", R,
                            {"from": "Friesland", "to": "Saxony", "units": {"footman": 1}}, at=STAMP)
    b = _find(envs, "BattleStarted", B, territory="Poland")
    envs[b:b] = [
        make_envelope(gid, 0, "BattleStarted", B, {"territory": "Saxony"}, at=STAMP),
        make_envelope(gid, 0, "DiceRolled", None, {"rolls": {"blue": [5, 3], "red": [2]}, "rank": 4}, at=STAMP),
        make_envelope(gid, 0, "CasualtiesRemoved", R, {"territory": "Saxony", "units": {"footman": 1}}, at=STAMP),
    ]
    out["broken-castle-no-siege.jsonl"] = _text(seal(_renumber(envs)))

    # one line edited in the middle (blue's round-3 tax claim 8 -> 12), not re-sealed
    base, sealed, gid = variant("edited-line")
    envs = copy.deepcopy(sealed)
    t = [k for k, e in enumerate(envs) if e["type"] == "Taxed" and e["actor"] == B][1]
    envs[t]["payload"]["coins"] = 12
    out["broken-edited-line.jsonl"] = _text(envs)

    # a wrong claim, sealed: blue claims 12 coins of tax where the rules give 8
    base, sealed, gid = variant("claim-coins")
    envs = copy.deepcopy(base)
    envs[t]["payload"]["coins"] = 12
    out["broken-claim-coins.jsonl"] = _text(seal(envs))

    # the declared winner is not the one the rules give
    base, sealed, gid = variant("wrong-winner")
    envs = copy.deepcopy(base)
    envs[_find(envs, "GameEnded")]["payload"]["winner"] = G
    out["broken-wrong-winner.jsonl"] = _text(seal(envs))

    # a line that is not JSON (a BattleEnded claim garbled by an editor)
    base, sealed, gid = variant("malformed-line")
    text = _text(sealed).splitlines(keepends=True)
    k = _find(sealed, "BattleEnded", territory="England")
    text[k] = text[k][:40] + "\n"
    out["broken-malformed-line.jsonl"] = "".join(text)

    # an event type the ruleset does not know
    base, sealed, gid = variant("unknown-event")
    envs = copy.deepcopy(base)
    envs.insert(k, make_envelope(gid, 0, "Teleported", B, {"from": "Saxony", "to": "Rome"}, at=STAMP))
    out["broken-unknown-event.jsonl"] = _text(seal(_renumber(envs)))

    # a line deleted (the England battle claim): the chain and the sequence show the gap
    base, sealed, gid = variant("deleted-line")
    envs = copy.deepcopy(sealed)
    del envs[k]
    out["broken-deleted-line.jsonl"] = _text(envs)

    # a line appended twice (a duplicate append)
    base, sealed, gid = variant("duplicate-line")
    text = _text(sealed).splitlines(keepends=True)
    text.insert(k + 1, text[k])
    out["broken-duplicate-line.jsonl"] = "".join(text)

    # a recording cut off in the middle of a line
    base, sealed, gid = variant("truncated")
    full = _text(sealed)
    out["broken-truncated.jsonl"] = full[: full.rindex("\n", 0, len(full) // 2) + 60]

    # an empty file, and a file of another format
    out["broken-empty.jsonl"] = ""
    out["broken-not-a-log.jsonl"] = '[Event "Casual game"]\n[White "A"]\n\n1. e4 e5 2. Nf3 Nc6 *\n'
    return out


def simulated_samples(first_seed: int = 1, max_games: int = 600) -> dict[str, str]:
    """Simulated games (seeded bots) chosen greedily, seed by seed, until together they show every
    required feature of Risk Europe (engine/risk_europe/features.py: every order, bonus action,
    tile, battle rank, a castle re-roll, a simultaneous elimination, an elimination, a tie-break).
    name -> file text."""
    from replay.logfile import read_log_text
    from engine.risk_europe.sim import simulate_game
    from replay.features import game_features, required_features
    from replay.judge import judge

    need = set(required_features("risk-europe"))
    have: set[str] = set()
    out: dict[str, str] = {}
    for seed in range(first_seed, first_seed + max_games):
        text = _text(simulate_game(seed, f"sim-{seed:04d}"))
        features = game_features(judge(read_log_text(text, f"sim-{seed:04d}")))
        if (features & need) - have:
            have |= features
            out[f"sim-{seed:04d}.jsonl"] = text
            print(f"  seed {seed}: +{sorted((features & need) - (have - features))}", file=sys.stderr)
        if need <= have:
            break
    missing = need - have
    if missing:
        print(f"  not found in {max_games} games: {sorted(missing)}", file=sys.stderr)
    return out


# --- variants (docs/variants.md): simulated games, their table-mode copies, broken copies ------

VARIANT_GAMES = {     # file -> variant; each a complete simulated game in digital-play form
    "var-mercenaries-3p.jsonl": "mercenaries-3p",
    "var-mercenaries-2p.jsonl": "mercenaries-2p",
    "var-teams.jsonl": "teams",
    "var-teams-long.jsonl": "teams+long",
    "var-basic-missions.jsonl": "basic+missions",
    "var-mercenaries-3p-missions.jsonl": "mercenaries-3p+missions",
    "var-mercenaries-2p-missions.jsonl": "mercenaries-2p+missions",
}
TABLE_COPIES = {      # the table-mode copy of a simulated game: the base of the broken copies
    "var-mercenaries-3p-table.jsonl": "var-mercenaries-3p.jsonl",
    "var-mercenaries-2p-table.jsonl": "var-mercenaries-2p.jsonl",
    "var-teams-table.jsonl": "var-teams.jsonl",
    "var-basic-missions-table.jsonl": "var-basic-missions.jsonl",
}


def example_missions():
    """The board and deck with the invented example missions (the +missions samples use them)."""
    from engine.risk_europe.board import MISSIONS_EXAMPLE, load_data, shipped_file
    return load_data(missions_path=shipped_file(MISSIONS_EXAMPLE))


def data_for(variant: str):
    from engine.risk_europe.variants import parse_variant
    return example_missions() if parse_variant(variant).missions else default_data()


def _steps(envs: list[dict], data) -> list[tuple]:
    """(state before, envelope, state after) for every event after GameStarted; the envelopes
    must be legal (claims allowed)."""
    start = PAYLOADS["GameStarted"].model_validate(envs[0]["payload"])
    state = RULESET.initial_state(start, data)
    out = []
    for env in envs[1:]:
        event = Event(env["seq"], env["type"], env["actor"], PAYLOADS[env["type"]].model_validate(env["payload"]))
        violations, nxt = RULESET.step(state, event)
        if nxt is None or any(v.blocking for v in violations):
            raise SystemExit(f"{envs[0]['game']} seq {env['seq']}: {[v.as_dict() for v in violations]}")
        out.append((state, env, nxt))
        state = nxt
    return out


def _partial_tie(b) -> bool:
    """A roll-off for control of a Mercenary Army between some of the players, not all."""
    return b.flow.phase == "rolloff" and b.flow.merc is not None and len(b.flow.tied) < len(b.active_players)


def _merc_shows(envs: list[dict]) -> bool:
    """A 3-player base for the broken copies: a roll-off for control between two of the three
    players, and a Mercenary flip of a tax-spend card."""
    steps = _steps(envs, default_data())
    spend = any(e["type"] == "CardRevealed" and b.is_mercenary(e["actor"])
                and "spend" in b.data.cards[e["payload"]["card"]].orders for b, e, a in steps)
    return spend and any(_partial_tie(b) for b, e, a in steps)


def _completes_missions(envs: list[dict]) -> bool:
    return any(e["type"] == "MissionCompleted" for e in envs)


def _completes_a_mission_later(envs: list[dict]) -> bool:
    """A mission completed on a later turn than the one it was kept on (the base of the copy
    that turns it over too soon)."""
    from engine.core.commit import commitment
    for k, e in enumerate(envs):
        if e["type"] != "MissionKept":
            continue
        for later in envs[k + 1:]:
            if later["actor"] == e["actor"] and later["type"] == "CardRevealed":
                break
            if later["type"] == "MissionCompleted" and later["actor"] == e["actor"]:
                e = None
                break
        if e is None:
            continue
        if any(x["type"] == "MissionCompleted" and x["actor"] == e["actor"]
               and commitment(x["payload"]["mission"], x["payload"]["salt"]) == e["payload"]["commitment"]
               for x in envs[k + 1:]):
            return True
    return False


VARIANT_NEEDS = {"mercenaries-3p": _merc_shows, "basic+missions": _completes_a_mission_later,
                 "mercenaries-3p+missions": _completes_missions, "mercenaries-2p+missions": _completes_missions}


SEEDS_TRIED = 25


def variant_game(name: str) -> list[dict]:
    """The shortest game of the variant among seeds 1..SEEDS_TRIED that ends (and shows what
    VARIANT_NEEDS asks): short samples are quicker to read and to judge."""
    from engine.risk_europe.sim import play_game
    variant = VARIANT_GAMES[name]
    need = VARIANT_NEEDS.get(variant)
    gid = name.removesuffix(".jsonl")
    best: list[dict] | None = None
    for seed in range(1, SEEDS_TRIED + 1):
        g = play_game(seed, gid, variant=variant)
        if g.finished and (best is None or g.events < len(best)) and (need is None or need(g.envelopes)):
            best = g.envelopes
    if best is None:
        raise SystemExit(f"no seed up to {SEEDS_TRIED} gives a finished {variant} game")
    return best


def to_table(envs: list[dict], game: str) -> list[dict]:
    """The same game as a table would record it: plain bids, cards and kept missions instead of
    commitments, no dice stream (draws and dice recorded as they came out), no seed."""
    from engine.core.commit import commitment
    out: list[dict] = []
    for i, e in enumerate(envs):
        t, actor, p = e["type"], e["actor"], dict(e["payload"])
        if t == "GameStarted":
            p["dice"] = {"mode": "table"}
        elif t == "SeedRevealed" or (t == "BidPlaced" and "commitment" in p):
            continue
        elif t == "BidRevealed":
            t, p = "BidPlaced", {k: v for k, v in p.items() if k != "salt"}
        elif t == "CardsCommitted" and "commitments" in p:
            later = [x["payload"]["card"] for x in envs[i + 1:] if x["type"] == "CardRevealed" and x["actor"] == actor]
            p = {"cards": later[:2]}
        elif t in ("CardRevealed", "TilesDrawn"):
            p = {k: v for k, v in p.items() if k not in ("salt", "dice")}
        elif t == "MissionKept" and "commitment" in p:
            done = [x["payload"] for x in envs[i + 1:] if x["type"] == "MissionCompleted" and x["actor"] == actor
                    and commitment(x["payload"]["mission"], x["payload"]["salt"]) == p["commitment"]]
            if done:
                p = {"mission": done[0]["mission"]}
        elif t == "MissionCompleted":
            kept = [x for x in out if x["type"] == "MissionKept" and x["actor"] == actor
                    and x["payload"].get("mission") == p["mission"]]
            if kept:
                p = {"mission": p["mission"]}
        out.append(make_envelope(game, len(out), t, actor, p))
    return out


def _edit(base: list[dict], what: str, change) -> tuple[str, list[dict]]:
    """A broken copy of `base`: `change(envs)` edits a deep copy in place; renumbered, sealed."""
    envs = _renamed(base, f"{base[0]['game']}-{what}")
    change(envs)
    gid = envs[0]["game"]
    for e in envs:
        e["game"] = gid
    return _text(seal(_renumber(envs))), envs


def _env(envs: list[dict], type_: str, actor, payload: dict) -> dict:
    return make_envelope(envs[0]["game"], 0, type_, actor, payload)


def broken_variant_logs(games: dict[str, list[dict]], tables: dict[str, list[dict]]) -> dict[str, str]:
    """name -> file text: one broken copy per variant rule (see sample_logs/README.md)."""
    out: dict[str, str] = {}
    m3, m2 = tables["var-mercenaries-3p-table.jsonl"], tables["var-mercenaries-2p-table.jsonl"]
    teams, missions = tables["var-teams-table.jsonl"], tables["var-basic-missions-table.jsonl"]
    m3_steps = _steps(m3, default_data())

    def where(steps, pred) -> int:
        """The index in the envelopes (GameStarted is 0) of the first step matching `pred`."""
        return next(k for k, (b, e, a) in enumerate(steps, start=1) if pred(b, e, a))

    k_tiles = next(k for k, e in enumerate(m3) if e["type"] == "TilesDrawn")
    k_round1 = next(k for k, e in enumerate(m3) if e["type"] == "CardsCommitted")

    def tiles(envs):      # the Mercenary Army draws one tile, not two; the log ends with the setup
        envs[k_tiles]["payload"]["tiles"] = envs[k_tiles]["payload"]["tiles"][:1]
        del envs[k_round1:]
    out["broken-merc-tiles.jsonl"] = _first_alone(m3, "merc-tiles", [tiles], "RE-MERC-SETUP")

    drafts = [k for k, e in enumerate(m3) if e["type"] == "KingdomPlaced"]

    def footmen(k: int, t: str, n: int, cut: bool = False):
        def change(envs):
            f = envs[k]["payload"]["footmen"]
            f[t] += n
            if cut:
                del envs[k_round1:]
        return change
    # a drafted city comes with six (or four) Footmen: the first such edit that changes nothing
    # else the log goes on to record; failing that, the log ends with the setup
    edits = [footmen(k, t, n) for k in reversed(drafts) for n in (1, -1)
             for t, have in m3[k]["payload"]["footmen"].items() if have + n >= (1 if n < 0 else 0)]
    edits.append(footmen(drafts[-1], next(iter(m3[drafts[-1]]["payload"]["footmen"])), 1, cut=True))
    out["broken-merc-draft.jsonl"] = _first_alone(m3, "merc-draft", edits, "RE-DRAFT")

    def bid_twice(envs):  # a player bids a second time for the Mercenary Army
        i = next(k for k, e in enumerate(envs) if e["type"] == "BidPlaced" and e["payload"].get("army"))
        e = envs[i]
        envs.insert(i + 1, _env(envs, "BidPlaced", e["actor"], {"amount": 0, "army": e["payload"]["army"]}))
    out["broken-merc-bid-twice.jsonl"] = _edit(m3, "merc-bid-twice", bid_twice)[0]

    k_tie = where(m3_steps, lambda b, e, a: _partial_tie(b))
    def tie(envs):        # a player who did not tie rolls in the roll-off for control
        rolls = dict(envs[k_tie]["payload"]["rolls"])
        other = next(p for p in m3_steps[0][0].active_players if p not in rolls)
        envs.insert(k_tie, _env(envs, "DiceRolled", None, {"rolls": {**{p: [3] for p in rolls}, other: [6]}}))
    out["broken-merc-tie.jsonl"] = _edit(m3, "merc-tie", tie)[0]

    k_commit = next(k for k, e in enumerate(m3) if e["type"] == "CardsCommitted")
    army = m3[0]["payload"]["mercenaries"][0]["id"]
    def deck(envs):       # the Mercenary Army commits cards like a player
        envs.insert(k_commit, _env(envs, "CardsCommitted", army, {"cards": ["tax-spend-1", "tax-spend-2"]}))
    out["broken-merc-deck.jsonl"] = _edit(m3, "merc-deck", deck)[0]

    k_spend = where(m3_steps, lambda b, e, a: e["type"] == "CardRevealed" and b.is_mercenary(e["actor"])
                    and "spend" in b.data.cards[e["payload"]["card"]].orders)
    def crown(envs):      # the Mercenary Army buys a Crown Card
        envs.insert(k_spend + 1, _env(envs, "Spent", army, {"purchases": [{"item": "crown_card"}]}))
    out["broken-merc-crown-card.jsonl"] = _edit(m3, "merc-crown-card", crown)[0]

    out["broken-merc-seat.jsonl"] = _merc_turn_left_out(m3, m3_steps, army)

    def win(envs):        # the log declares a player who has not won
        i = next(k for k, e in enumerate(envs) if e["type"] == "GameEnded")
        winner = envs[i]["payload"]["winner"]
        envs[i]["payload"]["winner"] = next(p["id"] for p in envs[0]["payload"]["players"] if p["id"] != winner)
    out["broken-merc-win.jsonl"] = _edit(m3, "merc-win", win)[0]

    seeded = games["var-mercenaries-3p.jsonl"]
    seeded_steps = _steps(seeded, default_data())
    k_flip = where(seeded_steps, lambda b, e, a: e["type"] == "CardRevealed" and b.is_mercenary(e["actor"]))
    pool = mercenary_pool(seeded_steps[k_flip - 1][0], army)
    def dice(envs):       # one die of a Mercenary flip changed: it draws another card than the one flipped
        p = envs[k_flip]["payload"]
        for face in range(1, 7):
            d = p["dice"][:-1] + [face]
            try:
                if draw_with(pool, 1, d) != [p["card"]]:
                    p["dice"] = d
                    return
            except DrawError:
                continue
    out["broken-chance-draw.jsonl"] = _edit(seeded, "chance-draw", dice)[0]

    k_order = next(k for k, e in enumerate(m2) if e["type"] == "MercenaryBidsOrdered")
    def bid_order(envs):  # the player without the marker orders the Mercenary bids
        e = envs[k_order]
        other = next(p["id"] for p in envs[0]["payload"]["players"] if p["id"] != e["actor"])
        envs.insert(k_order, _env(envs, "MercenaryBidsOrdered", other, dict(e["payload"])))
    out["broken-merc-bid-order.jsonl"] = _edit(m2, "merc-bid-order", bid_order)[0]

    team_steps = _steps(teams, default_data())

    def teammate_target(b, e):
        """(from, to) of an expand into a teammate's territory open to `e`'s actor, if any."""
        p = e["actor"]
        for t, x in b.terr.items():
            if x.owner == p and x.units.total > 1:
                for n in sorted(b.data.neighbours[t]):
                    if b.is_teammate(p, b.terr[n].owner):
                        return t, n
        return None
    k_mate = where(team_steps, lambda b, e, a: e["type"] == "CardRevealed"
                   and "expand" in b.data.cards[e["payload"]["card"]].orders and teammate_target(a, e))
    frm, to = teammate_target(team_steps[k_mate - 1][2], teams[k_mate])
    def mate(envs):       # a player attacks their teammate
        envs.insert(k_mate + 1, _env(envs, "Expanded", envs[k_mate]["actor"],
                                     {"from": frm, "to": to, "units": {"footman": 1}}))
    out["broken-team-territory.jsonl"] = _edit(teams, "team-territory", mate)[0]

    k_tspend = where(team_steps, lambda b, e, a: e["type"] == "CardRevealed"
                     and "spend" in b.data.cards[e["payload"]["card"]].orders)
    def team_crown(envs):  # a Crown Card bought in team play
        envs.insert(k_tspend + 1, _env(envs, "Spent", envs[k_tspend]["actor"], {"purchases": [{"item": "crown_card"}]}))
    out["broken-team-crown-card.jsonl"] = _edit(teams, "team-crown-card", team_crown)[0]

    def team_end(envs):   # the log declares the losing team the winner
        i = next(k for k, e in enumerate(envs) if e["type"] == "GameEnded")
        won = set(envs[i]["payload"]["winners"])
        envs[i]["payload"]["winners"] = [p["id"] for p in envs[0]["payload"]["players"] if p["id"] not in won]
    out["broken-team-end.jsonl"] = _edit(teams, "team-end", team_end)[0]

    mission_steps = _steps(missions, example_missions())
    k_mspend = where(mission_steps, lambda b, e, a: e["type"] == "CardRevealed"
                     and "spend" in b.data.cards[e["payload"]["card"]].orders and a.flow.pending is None)
    def purchase(envs):   # a Crown Card bought with Kingdom Missions
        envs.insert(k_mspend + 1, _env(envs, "Spent", envs[k_mspend]["actor"], {"purchases": [{"item": "crown_card"}]}))
    out["broken-mission-purchase.jsonl"] = _edit(missions, "mission-purchase", purchase)[0]

    k_kept = next(k for k, e in enumerate(missions) if e["type"] == "MissionKept")
    def keep_twice(envs):  # a second Crown Card kept from one draw
        e = envs[k_kept]
        envs.insert(k_kept + 1, _env(envs, "MissionKept", e["actor"], {"commitment": "0" * 64}))
    out["broken-mission-draw.jsonl"] = _edit(missions, "mission-draw", keep_twice)[0]

    k_done = next(k for k, e in enumerate(missions) if e["type"] == "MissionCompleted")
    done = missions[k_done]
    k_other = where(mission_steps, lambda b, e, a: k_done < e["seq"] and e["type"] == "CardRevealed"
                    and e["actor"] != done["actor"] and a.flow.pending is None)
    def not_kept(envs):   # a player turns over a mission someone else completed
        envs.insert(k_other + 1, _env(envs, "MissionCompleted", envs[k_other]["actor"],
                                      {"mission": done["payload"]["mission"]}))
    out["broken-mission-reveal.jsonl"] = _edit(missions, "mission-reveal", not_kept)[0]

    def too_soon(k: int):  # a mission turned over before its condition holds (judge with the example file)
        e = missions[k]
        return lambda envs: envs.insert(k + 1, _env(envs, "MissionCompleted", e["actor"],
                                                     {"mission": e["payload"]["mission"]}))
    early = [too_soon(k) for k, e in enumerate(missions) if e["type"] == "MissionKept" and e["payload"].get("mission")]
    out["broken-mission-complete.jsonl"] = _first_alone(missions, "mission-complete", early, "RE-MISSION-COMPLETE",
                                                        data=example_missions())

    def variant_name(envs):  # a variant this engine does not judge
        envs[0]["payload"]["variant"] = "mercenaries-4p"
    out["broken-variant-unknown.jsonl"] = _edit(m3, "variant-unknown", variant_name)[0]
    return out


VARIANT_BROKEN = (
    "broken-merc-tiles.jsonl", "broken-merc-draft.jsonl", "broken-merc-bid-twice.jsonl",
    "broken-merc-tie.jsonl", "broken-merc-deck.jsonl", "broken-merc-crown-card.jsonl",
    "broken-merc-seat.jsonl", "broken-merc-win.jsonl", "broken-chance-draw.jsonl",
    "broken-merc-bid-order.jsonl", "broken-team-territory.jsonl", "broken-team-crown-card.jsonl",
    "broken-team-end.jsonl", "broken-mission-purchase.jsonl", "broken-mission-draw.jsonl",
    "broken-mission-reveal.jsonl", "broken-mission-complete.jsonl", "broken-variant-unknown.jsonl",
)


def _first_alone(base: list[dict], what: str, changes: list, rule: str, data=None) -> str:
    """The first of `changes` whose broken copy has `rule` as its only finding."""
    from replay.logfile import read_log_text
    from replay.judge import judge
    for change in changes:
        text = _edit(base, what, change)[0]
        if [f.rule for f in judge(read_log_text(text), data=data).findings] == [rule]:
            return text
    raise SystemExit(f"no edit of {base[0]['game']} breaks {rule} alone")


def _merc_turn_left_out(base: list[dict], steps: list[tuple], army: str) -> str:
    """A Mercenary turn (its flip and its actions) left out of the log: the latest one, after the
    deck's last reshuffle, whose absence changes nothing else the log goes on to record (the
    copy's only finding is then the missing turn)."""
    from replay.logfile import read_log_text
    from replay.judge import judge
    flips = [k for k, (b, e, a) in enumerate(steps, start=1) if e["type"] == "CardRevealed" and b.is_mercenary(e["actor"])]
    last_cycle = flips[(len(flips) - 1) // 8 * 8:]
    for k in reversed(last_cycle):
        end = k + 1
        while end < len(base) and base[end]["actor"] == army and base[end]["type"] != "CardRevealed":
            end += 1

        def seat(envs, k=k, end=end):   # the Mercenary turn is left out of the log
            del envs[k:end]
        text = _edit(base, "merc-seat", seat)[0]
        if [f.rule for f in judge(read_log_text(text)).findings] == ["RE-MERC-SEAT"]:
            return text
    raise SystemExit("no Mercenary turn of the last cycle can be left out on its own")


def variant_samples(games: dict[str, list[dict]] | None = None) -> dict[str, str]:
    """name -> file text: the simulated variant games (played now, or as given: name ->
    envelopes), their table-mode copies, and the broken copies."""
    games = games if games is not None else {name: variant_game(name) for name in VARIANT_GAMES}
    tables = {name: to_table(games[src], name.removesuffix(".jsonl")) for name, src in TABLE_COPIES.items()}
    out = {name: _text(envs) for name, envs in games.items()}
    out.update({name: _text(seal(envs)) for name, envs in tables.items()})
    out.update(broken_variant_logs(games, tables))
    return out


def main(argv: list[str]) -> None:
    base = game42()
    (HERE / "game42.jsonl").write_text(_text(seal(base)), encoding="utf-8")
    (HERE / "tiebreak.jsonl").write_text(_text(seal(tiebreak_game())), encoding="utf-8")
    for name, text in broken_variants(base).items():
        (HERE / name).write_text(text, encoding="utf-8")
    print(f"wrote game42.jsonl ({len(base)} events) and {len(broken_variants(base))} broken copies to {HERE}")
    if "--variants" in argv:
        for old in [*HERE.glob("var-*.jsonl"), *(HERE / n for n in VARIANT_BROKEN)]:
            if old.exists():
                old.unlink()
        samples = variant_samples()
        for name, text in samples.items():
            (HERE / name).write_text(text, encoding="utf-8")
        print(f"wrote {len(samples)} variant samples: {', '.join(samples)}")
    if "--simulated" in argv:
        for old in HERE.glob("sim-*.jsonl"):
            old.unlink()
        sims = simulated_samples()
        for name, text in sims.items():
            (HERE / name).write_text(text, encoding="utf-8")
        print(f"wrote {len(sims)} simulated games: {', '.join(sims)}")


if __name__ == "__main__":
    main(sys.argv[1:])
