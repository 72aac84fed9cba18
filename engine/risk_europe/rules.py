"""Every rule the Risk Europe engine enforces: id, rulebook section (seed 000, the English game
guide, 2015; pages as printed in its contents), and the rule in words. Rulings on gaps in the
book are in docs/rulings.md and carry ids starting RE-RULING-."""

from engine.core.rules import Rule, RuleBook, Verdicts, dice_rules

SETUP = "Game Setup (p.6)"
PLACEMENT = "Steps for Kingdom Placement (p.7)"
ROUND = "How to Play: Round Overview (p.8)"
CROWNS = "Collecting Crowns (p.9)"
EXPAND = "The King's Orders Cards: Expand (p.10)"
SPLIT = "The King's Orders Cards: Split Expand (p.11)"
MANEUVER = "The King's Orders Cards: Maneuver (p.11-12)"
TAX = "Collecting and Spending Coins: Tax (p.12)"
SPEND = "Spending Coins (p.14)"
BONUS = "Bonus Actions (p.13)"
BATTLES = "Battles in Disputed Territories (p.15-18)"
WINNING = "Winning the Game (p.19)"
TILES = "City Bonus Tiles (p.22)"
LOGFMT = "ledger log format v1 (docs/log-format.md)"
MERC3 = "Mercenaries: 3-Player Variant (p.20-21)"
MERC2 = "Mercenaries: 2-Player Variant (p.21)"
TEAMS = "Team Gameplay (p.22)"
DRAWS = "ledger random draws (docs/log-format.md, docs/variants.md)"
MISSIONS = "Kingdom Missions Play Variant (p.19)"

RULES = RuleBook("risk-europe", [
    # --- the log as a game record -------------------------------------------------------------
    Rule("RE-START-PLAYERS", SETUP, "The basic game and team play have four players, the 3- and "
         "2-player games one and two Mercenary Armies besides; every army has a distinct id."),
    Rule("RE-START-VARIANT", "2- and 3-Player Games (p.20), Team Gameplay (p.22), Kingdom Missions (p.19)",
         "The variant must be one this engine judges (docs/variants.md); Kingdom Missions need the "
         "Crown Cards, so not with team play."),
    Rule("RE-START-DATA", LOGFMT, "A board or card digest declared by the log must be the data the "
         "game is judged with."),
    Rule("RE-FLOW", ROUND, "Each event must come at its point of the game: bids, placement, cards, "
         "turns in turn order, battles, in that order."),
    Rule("RE-ACTOR", ROUND, "Only the player whose decision it is may make it."),
    Rule("RE-NAME", "The Gameboard (p.5)", "Territories, cities, cards and players must be ones the "
         "game has."),
    Rule("RE-GAME-OVER", WINNING, "Nothing is played after the game has ended."),
    *dice_rules("RE", BATTLES),
    # --- setup --------------------------------------------------------------------------------
    Rule("RE-SETUP-COINS", SETUP, "Each player starts with five silver coins, one crown and one castle."),
    Rule("RE-BID-AMOUNT", SETUP, "A bid for first player is a whole number of coins from 0 to the "
         "coins the player holds (five at the start)."),
    Rule("RE-BID-ONCE", SETUP, "Each player bids once, secretly; all bids are revealed together."),
    Rule("RE-BID-REVEAL", SETUP, "A revealed bid must match the commitment made for it."),
    Rule("RE-BID-WINNER", SETUP, "The highest bidder pays their bid to the reserve and takes the First "
         "Player Marker; the others keep their coins."),
    Rule("RE-BID-TIE", SETUP, "Tied highest bids are settled by rolling dice; the highest roll wins "
         "(tied rolls roll again)."),
    Rule("RE-PLACE-CITY", PLACEMENT, "A kingdom is placed on a Gold Crown City that no one holds; the "
         "player takes its crown, castle, City Bonus Tile and Tax Value in coins."),
    Rule("RE-PLACE-BANNER", PLACEMENT, "The War Banner starts at 1 on the Crown Tracker (2 for Rome)."),
    Rule("RE-PLACE-FOOTMEN", PLACEMENT, "Exactly 10 Footmen are placed, divided between the starting "
         "city territory and one adjacent non-city territory."),
    # --- rounds and cards ---------------------------------------------------------------------
    Rule("RE-CARDS-COMMIT", ROUND, "Each player places two different cards from their hand face down, "
         "top card for Turn 1 and bottom card for Turn 2; they cannot be reordered."),
    Rule("RE-CARDS-HAND", "How to Play (p.8)", "A card can be played only from the hand; played cards "
         "stay in the discard pile until the hand is refilled at the start of every fifth round."),
    Rule("RE-CARDS-REVEAL", ROUND, "The card revealed on a turn is the one committed for that turn."),
    Rule("RE-TURN-ORDER", ROUND, "Turn 1 then Turn 2, each in clockwise order from the player holding "
         "the First Player Marker at the start of the round."),
    Rule("RE-TURN-END", ROUND, "A turn is the current player's until they end it: once their card is "
         "revealed and nothing is pending (TurnEnded; the next player's reveal ends it as well), "
         "after which they give no more orders and play passes to the left."),
    Rule("RE-ORDER-ON-CARD", "The King's Orders Cards (p.10)", "The order played is one of the two "
         "orders printed on the revealed card; one order per turn."),
    # --- expand -------------------------------------------------------------------------------
    Rule("RE-EXPAND-FROM", EXPAND, "Units expand from a territory the player controls; only the "
         "defending player may expand out of a disputed territory."),
    Rule("RE-EXPAND-UNITS", EXPAND, "Only units present in the territory can move."),
    Rule("RE-EXPAND-LEAVE", EXPAND, "At least one unit stays behind in the original territory."),
    Rule("RE-EXPAND-DEFENDER-LEAVE", EXPAND, "A defender expanding out of a disputed territory leaves "
         "behind as many units as the attacker has there."),
    Rule("RE-EXPAND-ADJACENT", EXPAND, "Expansion is into an adjacent territory (border or sea-line)."),
    Rule("RE-EXPAND-TARGET", EXPAND, "Expansion is into an unclaimed territory or an opponent's "
         "territory, never one already in dispute nor one the player controls."),
    Rule("RE-EXPAND-CASTLE", "Build Castles: Castle Benefits (p.14); Expand (p.10)", "An opponent's "
         "castle territory may be entered only by an expanding army that contains a Siege Weapon."),
    Rule("RE-SPLIT-TARGETS", SPLIT, "A split expand moves from one territory into up to two different "
         "adjacent territories."),
    Rule("RE-CLAIM-CITY", CROWNS, "Expanding into an unclaimed city territory places a crown on it, pays "
         "its Tax Value, and gives its City Bonus Tile if it is a Gold Crown City."),
    Rule("RE-DISPUTE", BATTLES, "Expanding into an opponent's territory makes it disputed: the mover "
         "attacks, the holder defends and keeps any city or castle until the battle ends."),
    # --- maneuver -----------------------------------------------------------------------------
    Rule("RE-MANEUVER-FROM", MANEUVER, "A maneuver starts in a territory the player controls that is "
         "not in dispute (no retreat from battle)."),
    Rule("RE-MANEUVER-TO", MANEUVER, "A maneuver ends in another territory the player controls or a "
         "disputed territory the player fights in."),
    Rule("RE-MANEUVER-PATH", MANEUVER, "A maneuver goes at most two territories away, through "
         "territories the player controls; units stop on entering a disputed territory."),
    Rule("RE-MANEUVER-LEAVE", MANEUVER, "One unit stays behind when leaving a city or castle "
         "territory; a non-city territory may be emptied."),
    # --- tax ----------------------------------------------------------------------------------
    Rule("RE-TAX-CITY", TAX, "Tax is levied from a city territory the player controls."),
    Rule("RE-TAX-AMOUNT", TAX, "Tax is the full Tax Value of every city and one coin per non-city "
         "territory connected to the chosen city by supply lines; disputed territories pay nothing "
         "and break supply lines."),
    # --- spend --------------------------------------------------------------------------------
    Rule("RE-SPEND-COST", SPEND, "Footman 1, Archer 2, Cavalry 3, Siege Weapon 10, Castle 12, Crown "
         "Card 10 coins; a player cannot spend more coins than they hold."),
    Rule("RE-SPEND-PLACE", SPEND, "Recruited units are placed in city or castle territories the player "
         "controls, never in disputed territories."),
    Rule("RE-SPEND-RESERVE", SPEND, "No more units than the army reserve holds (35 Footmen, 12 Archers, "
         "12 Cavalry, 4 Siege Weapons per army)."),
    Rule("RE-SPEND-CASTLE", SPEND, "A castle is built in a territory the player controls, not in "
         "dispute, with no castle yet; only the eight castles of the box exist."),
    Rule("RE-SPEND-CROWN-CARD", SPEND, "Crown Cards: one per player per round, eight in the game "
         "(basic game only: not bought with Kingdom Missions, not used in team play)."),
    # --- bonus actions ------------------------------------------------------------------------
    Rule("RE-BONUS-CARD", BONUS, "A bonus action is used only if it is on the revealed card, once, "
         "before or after the order."),
    Rule("RE-KING-ME", BONUS, "Revealing King Me takes the First Player Marker at once."),
    Rule("RE-FORTIFY", BONUS, "Fortify adds 3 Footmen to a city territory or 4 to a castle territory "
         "the player controls; in a disputed territory only the defender may fortify."),
    Rule("RE-SIEGE-FROM", BONUS, "A Siege Assault is made from a territory the player controls, not in "
         "dispute, holding Siege Weapons."),
    Rule("RE-SIEGE-TARGET", BONUS, "A Siege Assault targets one enemy territory across a land border "
         "(not a sea-line), not in dispute."),
    Rule("RE-SIEGE-DICE", BONUS, "A Siege Assault rolls two dice per Siege Weapon; each 3 or more is a "
         "hit; no defence dice."),
    Rule("RE-CASUALTIES", BATTLES, "Each hit removes one unit chosen by its owner: exactly as many units "
         "as hits (or every unit, if hits exceed them), from units present."),
    # --- battles ------------------------------------------------------------------------------
    Rule("RE-BATTLE-ORDER", BATTLES, "After all cards are played, the First Player Marker holder "
         "chooses the order in which disputed territories are fought."),
    Rule("RE-BATTLE-DICE", BATTLES, "Ranked Attack Order: Siege Weapons 2 dice each (hit 3+), Archers "
         "1 each (5+), Cavalry 1 each (3+), General Attack attacker up to 3, defender up to 2 dice."),
    Rule("RE-BATTLE-HITS", BATTLES, "General Attack: highest against highest, then next highest; the "
         "higher die hits, ties go to the defender."),
    Rule("RE-CASTLE-DEFENSE", BATTLES, "A defender holding a castle may re-roll all their dice of one "
         "rank each time the Ranked Attack Order is repeated."),
    Rule("RE-BATTLE-END", BATTLES, "A battle ends when one army is gone; the winner takes the territory "
         "with its city, castle and tile; if both are gone the territory is unclaimed."),
    Rule("RE-NO-TAX-IN-BATTLE", CROWNS, "No Tax Value is collected for a city taken in battle."),
    # --- winning ------------------------------------------------------------------------------
    Rule("RE-CROWNS", "Collecting Crowns (p.9); Rome (p.22)", "A player's crowns are the crowns of "
         "the cities they control (Rome 2) plus their Crown Cards."),
    Rule("RE-WIN", WINNING, "A player with seven or more crowns at the end of a round wins; ties go to "
         "more territories, then more coins (the First Player Marker counts as 10 coins)."),
    Rule("RE-ELIMINATION", WINNING, "A player with no city at the end of a round is eliminated: their "
         "units leave the board, their tiles and coins go to the reserve."),
    Rule("RE-SAVED-BY-CROWN", WINNING, "A player without cities who owns a Crown Card plays one more "
         "round; without a city at its end they are eliminated and their Crown Cards leave the game."),
    # --- city bonus tiles ---------------------------------------------------------------------
    Rule("RE-TILE-TIMING", TILES, "A City Bonus Tile follows its city; its bonus is available from the "
         "start of the holder's next turn."),
    Rule("RE-TILE-STOCKHOLM", TILES, "Stockholm: 4 coins each time the holder attacks an opponent's "
         "territory and wins the battle (not for Siege Assaults)."),
    Rule("RE-TILE-BERLIN", TILES, "Berlin: a free maneuver after completing an expand or split expand, "
         "after all other actions of the card; castles cost 3 coins less."),
    Rule("RE-TILE-CONSTANTINOPLE", TILES, "Constantinople: 4 free Footmen with each Siege Weapon "
         "recruited."),
    Rule("RE-TILE-KIEV", TILES, "Kiev: units may be recruited into any non-city territory connected to "
         "Kiev by a supply line, never a disputed one."),
    Rule("RE-TILE-LONDON", TILES, "London: 2 free Archers in London each time tax is collected from it."),
    Rule("RE-TILE-PARIS", TILES, "Paris: 1 free Cavalry and 1 free Footman in Paris each time tax is "
         "collected from it."),
    Rule("RE-TILE-MADRID", TILES, "Madrid: 4 free Footmen in Madrid each time tax is collected from it."),
    # --- random draws -------------------------------------------------------------------------
    Rule("RE-CHANCE-DRAW", DRAWS, "A random draw (a Mercenary Army's City Bonus Tiles, a card "
         "flipped from a Mercenary deck) is a chance event: in digital play it carries the dice of the "
         "seeded stream it used, and those dice must give the recorded result by the published draw rule."),
    # --- 2 and 3 players: Mercenary Armies ------------------------------------------------------
    Rule("RE-MERC-SETUP", MERC3, "Each Mercenary Army draws City Bonus Tiles at random (two in the "
         "3-player game: its starting city, then its outpost; one each in the 2-player game): a crown and "
         "10 Mercenary Footmen in each city, a castle only in its starting city, five coins plus the Tax "
         "Values."),
    Rule("RE-DRAFT", MERC3 + "; " + MERC2 + "; " + TEAMS, "Instead of one kingdom, each player drafts "
         "Gold Crown Cities in turn order, one per pass: two (three with 2 players), each with 5 Footmen "
         "split between the city and one adjacent non-city territory; a castle only on the first (the "
         "first two with 2 players)."),
    Rule("RE-MERC-SEAT", MERC3 + "; " + MERC2, "A Mercenary deck is seated to the right of the first "
         "player (3 players), or one to the left and one to the right (2 players), and keeps that seat: "
         "its turns come there in the clockwise order."),
    Rule("RE-MERC-BID", MERC3, "Each round, once the players' cards are down, every player bids "
         "secretly, once, for control of each Mercenary Army: 0 to the coins they hold."),
    Rule("RE-MERC-BID-ORDER", MERC2, "With two Mercenary Armies, the player holding the First Player "
         "Marker at the start of the round chooses which is bid for first (one player may win both)."),
    Rule("RE-MERC-BID-WINNER", MERC3, "The highest bidder pays the bid to the Mercenary Army, not the "
         "reserve, and plays its turns this round; the others keep their coins."),
    Rule("RE-MERC-BID-TIE", MERC3, "Tied highest bids for a Mercenary Army are settled by rolling dice; "
         "the highest roll wins (tied rolls roll again)."),
    Rule("RE-MERC-DECK", MERC3, "A Mercenary Army commits no cards: on each of its turns the top card "
         "of its shuffled deck is flipped; the deck is reshuffled when it runs out."),
    Rule("RE-MERC-WIN", MERC3 + "; " + MERC2, "To win, a player needs eight crowns at the end of a "
         "round (ten in the 2-player game); a Mercenary Army never wins."),
    Rule("RE-MERC-CROWNS", MERC3, "A Mercenary Army's crowns are not tracked: it buys no Crown Cards; "
         "it is eliminated like a player when it ends a round without a city."),
    # --- team play ------------------------------------------------------------------------------
    Rule("RE-TEAM-TERRITORY", TEAMS, "Players at opposite seats are teammates: no one expands into or "
         "siege-assaults a teammate's territory or joins a teammate's battle (taxing, spending and "
         "maneuvering stay within one's own territories)."),
    Rule("RE-TEAM-NO-CROWNS", TEAMS, "War Banners and Crown Cards are not used: no Crown Card is "
         "bought, and no one wins by crowns."),
    Rule("RE-TEAM-END", TEAMS, "The game ends when every hand has been played through four times (16 "
         "rounds); the team holding more crown city territories wins. In the long form (teams+long) a "
         "team wins when it holds all 15."),
    # --- Kingdom Missions -----------------------------------------------------------------------
    Rule("RE-MISSION-NO-PURCHASE", MISSIONS, "With Kingdom Missions Crown Cards cannot be bought: a "
         "permanent crown comes only from a completed mission."),
    Rule("RE-MISSION-DRAW", MISSIONS, "Revealing King Me draws the top two Crown Cards: the player keeps "
         "one face down at once (a commitment) and returns the other to the bottom of the deck."),
    Rule("RE-MISSION-REVEAL", MISSIONS, "A completed mission is turned over on its holder's turn: it must "
         "be one they kept (matching its commitment) and not completed before."),
    Rule("RE-MISSION-COMPLETE", MISSIONS, "A mission counts only when its condition holds on the board "
         "(checked with the mission file): it adds a permanent crown at once, its bonus works from the "
         "start of the next round."),
    Rule("RE-MISSION-UNVERIFIED", MISSIONS + "; " + LOGFMT, "Without a mission file (or a condition in "
         "it) a completed mission is the player's claim: it is counted, and the audit lists it as "
         "unverified, never as verified."),
    Rule("RE-MISSION-SAVED", MISSIONS, "With Kingdom Missions only a completed mission saves a player "
         "without cities, for one more round however many they completed."),
    # --- claims -------------------------------------------------------------------------------
    Rule("RE-CLAIM", LOGFMT, "A result the recorder wrote down (coins, footmen, battle winner, game "
         "winner) must be the result the rules give."),
])


class _Ctx(Verdicts):
    """What judging one event produced: violations citing this ruleset's rules, and notes.

    Here, not in engine/risk_europe/common.py (which re-exports it), because common is compiled in
    the optional mypyc build (scripts/build-mypyc.sh) and this module is not: a compiled class
    cannot subclass the interpreted, slotted `Verdicts`, which the other rulesets' contexts
    subclass too."""

    __slots__ = ()
    book = RULES
