"""Build the sample logs: game42 (a complete, hand-checked 4-player game that walks through the
rulebook's worked examples) and one broken copy of it per kind of finding.

    python sample_logs/make_samples.py              # rewrites game42 and its broken copies
    python sample_logs/make_samples.py --simulated  # also re-picks the simulated sample games

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
from engine.risk_europe.events import PAYLOADS  # noqa: E402
from ledger.logfile import format_line, make_envelope, seal  # noqa: E402

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
    required feature of replay.features (every order, bonus action, tile, battle rank, a castle
    re-roll, a simultaneous elimination, an elimination, a tie-break). name -> file text."""
    from ledger.logfile import read_log_text
    from ledger.simulate import simulate_game
    from replay.features import REQUIRED_FEATURES, game_features
    from replay.judge import judge

    need = set(REQUIRED_FEATURES)
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


def main(argv: list[str]) -> None:
    base = game42()
    (HERE / "game42.jsonl").write_text(_text(seal(base)), encoding="utf-8")
    (HERE / "tiebreak.jsonl").write_text(_text(seal(tiebreak_game())), encoding="utf-8")
    for name, text in broken_variants(base).items():
        (HERE / name).write_text(text, encoding="utf-8")
    print(f"wrote game42.jsonl ({len(base)} events) and {len(broken_variants(base))} broken copies to {HERE}")
    if "--simulated" in argv:
        for old in HERE.glob("sim-*.jsonl"):
            old.unlink()
        sims = simulated_samples()
        for name, text in sims.items():
            (HERE / name).write_text(text, encoding="utf-8")
        print(f"wrote {len(sims)} simulated games: {', '.join(sims)}")


if __name__ == "__main__":
    main(sys.argv[1:])
