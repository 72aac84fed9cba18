"""Every rule the Risk Legacy engine enforces: id, rulebook section (seed 003, the Risk Legacy
rulebook, 2011; sections by their printed headings), and the rule in words. Rulings on gaps in
the book are in docs/risk-legacy.md and carry ids starting RL-RULING-."""

from engine.core.rules import Rule, RuleBook, dice_rules

KEY = "Legacy Key Terms"
FIRST = "Before Your First Game"
SETUP = "Setup Before Every Game"
FIRST_TURN = "Before the First Turn"
GOAL = "Goal"
TIMING = "Turn Overview; A Note on Timing"
START = "1 Start of Turn"
JOIN = "2 Join the War or Recruit Troops: Join the War"
RECRUIT = "2 Join the War or Recruit Troops: Recruit Troops"
EXPAND = "3 Expand and Attack: Expanding into Unoccupied Territories and Cities"
ATTACK = "3 Expand and Attack: How to Attack"
MODIFY = "3 Expand and Attack: Modifying Die Rolls"
FORT = "Fortifications"
MISSILES = "Missiles"
CONQUER = "If the Defender Has No More Troops in the Territory"
KNOCK = "Knocking Out Another Player"
MANEUVER = "4 Maneuver Troops"
DRAW = "5 End of Turn: Drawing a Card"
COIN_OUT = "When the Deck of Coin Cards Runs Out"
EVENTS = "Event Cards"
MISSIONS = "Mission Cards"
END = "End of Game"
WON = "End of Game: If You Won"
HELD = "End of Game: If You Held On but Did Not Win"
COMPLETED = "Completed World"
PACKS = "Opening New Packages"
POWERS = "Faction cards: starting powers (Customize the Factions; rules_data.json)"
SCARS = "Scar Cards; the board's reference stickers (rules_data.json)"
CAMPAIGN = "ledger campaigns (docs/risk-legacy.md)"
DRAWS = "Setup Before Every Game: Scar Cards; 5 End of Turn: Drawing a Card; ledger random draws (docs/log-format.md)"
SCAR_DEAL = "Setup Before Every Game: Scar Cards; ledger hidden commitments (docs/risk-legacy.md)"
LOGFMT = "ledger log format v1 (docs/log-format.md)"

RULES = RuleBook("risk-legacy", [
    # --- the log as a game record -------------------------------------------------------------
    Rule("RL-START-PLAYERS", "Cover: 3-5 Players", "A game has 3 to 5 players, each with a distinct id."),
    Rule("RL-START-DATA", LOGFMT, "A board or rules digest declared by the log must be the data the game "
         "is judged with."),
    Rule("RL-START-WORLD", CAMPAIGN, "The world a game starts from is a valid world of this board, and "
         "the digest the log declares for it is its digest."),
    Rule("RL-FLOW", "Turn Overview", "Each event must come at its point of the game: setup, faction "
         "choice, then turns, each in its steps; then the rewards."),
    Rule("RL-ACTOR", "Turn Overview", "Only the player whose decision it is may make it."),
    Rule("RL-NAME", "A Look at the Components", "Territories, cards, factions, scars and players must be "
         "ones the game has."),
    Rule("RL-GAME-OVER", END, "Nothing is played after the game has ended but the rewards."),
    *dice_rules("RL", ATTACK),
    Rule("RL-CHANCE-DRAW", DRAWS, "A random draw (the Scar deal, the Territory cards laid out or "
         "revealed, an Event or Mission card) is a chance event: its dice, when recorded, are exactly "
         "those the draw rule takes to draw the recorded cards from the pool (an Event or Mission card: "
         "one of the cards left), and they are dice of the game; in a seeded game the Scar deal and "
         "the Territory cards must carry them (a face-down deal: how many it took)."),
    Rule("RL-CLAIM", LOGFMT, "A result the recorder wrote down (troops recruited, troops lost, the "
         "winner, a pack opened) must be the result the rules give."),
    # --- setup ----------------------------------------------------------------------------------
    Rule("RL-CUSTOMIZE", FIRST, "Before the first game each faction gets one of its two starting powers "
         "and the 12 coin stickers go onto territory cards, no card above 3 resources."),
    Rule("RL-SETUP-TOKENS", SETUP, "A player who has not signed the victors' section starts with a Red "
         "Star token; one who has takes one Missile per signature instead."),
    Rule("RL-SETUP-SCARS", SETUP, "Each player is dealt one of the available Scar cards; if there are "
         "not enough for everyone, no one gets one."),
    Rule("RL-SETUP-SIDEBOARD", "Sideboard; 5 End of Turn", "Four Territory cards from the shuffled deck "
         "are laid face up in slots 1-4 (no event is triggered by them); the ten Coin cards lie face up."),
    Rule("RL-SETUP-ROLLOFF", FIRST_TURN, "Players roll dice; the highest roll chooses first (tied players "
         "roll again)."),
    Rule("RL-SETUP-FACTION", FIRST_TURN, "Clockwise from the first, each player chooses a faction no one "
         "has chosen and places 8 troops and its HQ in a legal starting territory."),
    Rule("RL-START-TERRITORY", FIRST_TURN, "A legal starting territory is unoccupied and unmarked (no scar, "
         "no city), or unoccupied with a Major City the player founded."),
    Rule("RL-START-HQ-ADJACENT", FIRST_TURN, "At the start of the game an HQ may not be placed adjacent "
         "to another faction's HQ."),
    # --- turns ----------------------------------------------------------------------------------
    Rule("RL-TURN-ORDER", FIRST_TURN + "; Turn Overview", "The player who placed first takes the first "
         "turn; play proceeds clockwise; eliminated players are skipped."),
    Rule("RL-TURN-STEPS", "Turn Overview", "A turn's steps come in order: start of turn, join the war or "
         "recruit, expand and attack, maneuver, end of turn."),
    Rule("RL-TURN-END", "5 End of Turn", "A turn ends with TurnEnded once nothing is pending (a combat, a "
         "card to reveal, an event, a mission); then the next player's turn begins."),
    Rule("RL-RED-STAR-BUY", START, "At the very start of your turn you may turn in four Resource cards, "
         "whatever their coins, for one Red Star token, as often as you have the cards."),
    Rule("RL-STARS", GOAL, "A player's Red Stars are the Red Star tokens in front of them plus every HQ "
         "they control on the board."),
    Rule("RL-WIN", GOAL, "The first player to have 4 Red Stars wins at once; so does the last player "
         "not eliminated."),
    Rule("RL-JOIN-WAR", JOIN, "A player who controls no territory must Join the War: half their starting "
         "troops (4) in a legal starting territory, and no new HQ."),
    Rule("RL-ELIMINATED", JOIN, "A player who must Join the War and has no legal starting territory is "
         "eliminated from the game."),
    Rule("RL-RECRUIT-MUST", RECRUIT, "A player who controls a territory must Recruit (and not Join the "
         "War), once, before expanding or attacking."),
    Rule("RL-RECRUIT-COUNT", RECRUIT, "Troops recruited: (territories + population) / 3 rounded down, at "
         "least 3, plus continent bonuses, plus troops for cards turned in; exactly that many are placed."),
    Rule("RL-RECRUIT-PLACE", RECRUIT, "Recruited troops are placed in territories the player controls."),
    Rule("RL-CONTINENT", RECRUIT, "A continent's bonus is earned by controlling all its territories; it is "
         "the printed bonus with its +1/-1 mark, and one more for the person who named it."),
    Rule("RL-TRADE", RECRUIT, "Cards turned in for troops total 2 to 10 resources and give the troops of "
         "the trade chart, without change; Territory cards go to the discard pile, Coin cards back to "
         "the face-up Coin pile."),
    Rule("RL-CARDS-HAND", START + "; " + RECRUIT, "Only cards in the player's hand can be turned in."),
    # --- expand ---------------------------------------------------------------------------------
    Rule("RL-EXPAND-FROM", EXPAND, "Troops expand from a territory the player controls, leaving at least "
         "one troop behind."),
    Rule("RL-EXPAND-ADJACENT", EXPAND, "Expansion is into an adjacent territory (border or sea-line)."),
    Rule("RL-EXPAND-TARGET", EXPAND, "Expansion is into an unoccupied territory; a territory with enemy "
         "troops is attacked instead."),
    Rule("RL-EXPAND-CITY", EXPAND + "; " + FORT, "Expanding into an unoccupied city loses troops equal to "
         "its population (two more if it is fortified); at least one troop must remain."),
    # --- attack ---------------------------------------------------------------------------------
    Rule("RL-ATTACK-FROM", ATTACK, "An attack comes from a territory the player controls with at least 2 "
         "troops; 1 to 3 troops attack and at least one stays behind."),
    Rule("RL-ATTACK-TARGET", ATTACK, "An attack targets an adjacent territory holding another player's "
         "troops."),
    Rule("RL-ATTACK-DICE", ATTACK, "The attacker rolls one die per attacking troop; the defender chooses "
         "1 or 2 defending troops (no more than are there; DefenceDeclared, once per roll) and rolls one "
         "die each."),
    Rule("RL-ATTACK-COMPARE", ATTACK, "Dice are compared highest against highest, then next highest; the "
         "higher die wins, the defender wins ties; unmatched dice are ignored."),
    Rule("RL-MODIFIERS", MODIFY, "A modified die stays within 1..6; of equal dice only one is changed per "
         "scar, power or missile; the dice are sorted again after all modifiers."),
    Rule("RL-SCAR-PLACE", SCARS, "A Scar card is played by the player holding it before an attack roll "
         "(and before the defender declares its dice), onto the defending territory, which must have no "
         "scar; the scar stays on the world."),
    Rule("RL-SCAR-REVEAL", SCAR_DEAL, "A Scar card dealt face down is turned over with the salt of its "
         "commitment when its scar is placed, or when the game ends if it was not played; the card and "
         "salt must match the commitment."),
    Rule("RL-SCAR-BUNKER", SCARS, "Bunker: the defender of this territory adds 1 to his higher die."),
    Rule("RL-SCAR-AMMO-SHORTAGE", SCARS, "Ammo Shortage: the defender of this territory subtracts 1 from "
         "his higher die."),
    Rule("RL-FORTIFICATION", FORT, "A fortified city's defender adds 1 to both dice; each attack on it "
         "with 3 troops marks one of its 10 boxes; with all 10 marked it is no longer fortified."),
    Rule("RL-MISSILE", MISSILES, "Any player may discard a Missile to change one die of the combat roll to "
         "an unmodifiable 6."),
    Rule("RL-MISSILE-TIMING", MISSILES, "Missiles are played after the dice are rolled and before troops "
         "are removed; a player holding Missiles may pass (MissilesHeld) until another Missile is fired."),
    Rule("RL-CASUALTIES", ATTACK, "After each roll the loser of each comparison removes one troop."),
    Rule("RL-CONQUER-MOVE", CONQUER, "When the defender has no troops left, the attacker moves in the "
         "attacking troops and may move more, leaving at least one behind."),
    Rule("RL-HQ-CAPTURE", CONQUER, "An HQ in a conquered territory stays there and is now controlled, with "
         "its Red Star, by the conqueror."),
    Rule("RL-KNOCK-OUT", KNOCK, "Defeating a player's last troop on the board gives the attacker all of "
         "that player's resource cards (not their Scar card, Red Stars or Missiles)."),
    # --- maneuver -------------------------------------------------------------------------------
    Rule("RL-MANEUVER-ONCE", MANEUVER, "One maneuver per turn, after expanding and attacking."),
    Rule("RL-MANEUVER-PATH", MANEUVER, "A maneuver moves troops from one territory to another connected "
         "through territories the player controls, leaving at least one troop behind."),
    # --- end of turn ----------------------------------------------------------------------------
    Rule("RL-DRAW-ELIGIBLE", DRAW, "A player who conquered at least one territory from an opponent this "
         "turn may draw one Resource card; expanding does not count."),
    Rule("RL-DRAW-CHOICE", DRAW, "The card is a face-up Territory card of a territory the player controls "
         "if there is one; otherwise a face-up Coin card; otherwise none."),
    Rule("RL-SIDEBOARD-SHIFT", DRAW, "Territory cards left of the emptied slot slide right (after a Coin "
         "card, slot 4 is discarded and slots 1-3 slide); the top of the deck fills slot 1; an empty deck "
         "is made again from the shuffled discard pile."),
    Rule("RL-COIN-DEPLETED", COIN_OUT, "The first time the Coin deck runs out in a game, the player who "
         "controls the most territories gets a Red Star token (no one on a tie)."),
    Rule("RL-EVENT-TRIGGER", EVENTS, "When the card newly revealed in slot 1 has an even number of "
         "resources, an Event card is drawn, if any are in play and left in the deck."),
    Rule("RL-MISSION", MISSIONS, "At the end of your turn you may complete the face-up mission for its 1 "
         "or 2 Red Star tokens; one per turn, not on a turn you draw a Resource card; a new one is revealed."),
    # --- starting powers ------------------------------------------------------------------------
    Rule("RL-POWER-MECH-FORTIFIED-HQ", POWERS, "Die Mechaniker: their starting HQ counts as fortified "
         "whenever they defend it, without wear."),
    Rule("RL-POWER-MECH-DOUBLE-SIXES", POWERS, "Die Mechaniker: a defense roll of two natural 6s makes "
         "that territory immune to further attacks this turn."),
    Rule("RL-POWER-BEAR-FIRST-STRIKE", POWERS, "Enclave of the Bear: in the first territory they attack "
         "on a turn, the defender subtracts 1 from his lower die."),
    Rule("RL-POWER-BEAR-THREE-OF-A-KIND", POWERS, "Enclave of the Bear: a natural three of a kind when "
         "attacking that defeats at least one defender conquers the territory outright."),
    Rule("RL-POWER-BALK-ROUND-UP", POWERS, "Imperial Balkania: (territories + population) / 3 is rounded "
         "up instead of down."),
    Rule("RL-POWER-BALK-EXPANSION-CARD", POWERS, "Imperial Balkania: expanding into 4 or more territories "
         "in a turn makes them eligible for a Resource card even without a conquest."),
    Rule("RL-POWER-KHAN-HQ-REINFORCEMENT", POWERS, "Khan Industries: at the start of their turn one troop "
         "is placed in each territory holding an HQ they control."),
    Rule("RL-POWER-KHAN-CARD-TROOP", POWERS, "Khan Industries: when they draw the Territory card of a "
         "territory they control they may place one troop there."),
    Rule("RL-POWER-SAHARA-MANEUVER-ANYTIME", POWERS, "The Saharan Republic: their maneuver may be made at "
         "any point in the turn."),
    Rule("RL-POWER-SAHARA-MANEUVER-ANYWHERE", POWERS, "The Saharan Republic: their maneuver may go between "
         "any two territories they control, connected or not."),
    # --- end of game and rewards ----------------------------------------------------------------
    Rule("RL-END-OUTCOMES", END, "At the end every faction card records Won, Held On or Eliminated (no "
         "troops on the board counts as eliminated); factions not played are marked absent."),
    Rule("RL-REWARD-WINDOW", END + "; " + COMPLETED, "Only the first 15 games on the world give the winner "
         "a signature and rewards to the winner and those who held on."),
    Rule("RL-REWARD-ORDER", HELD, "The winner chooses first, then each player who held on, clockwise from "
         "the winner; one reward each; eliminated players get none."),
    Rule("RL-REWARD-WINNER", WON, "The winner chooses one of: name a continent, found a Major City, cancel "
         "a scar, change a continent bonus, fortify a city, destroy a Territory card."),
    Rule("RL-REWARD-HELD-ON", HELD, "A player who held on chooses one of: found a Minor City, upgrade a "
         "card."),
    Rule("RL-REWARD-NAME-CONTINENT", WON, "Only an unnamed continent can be named."),
    Rule("RL-REWARD-MAJOR-CITY", WON, "A Major City (one of five) is founded in a territory without a city; "
         "it is a legal starting territory for its founder alone."),
    Rule("RL-REWARD-CANCEL-SCAR", WON, "One of the four cancel stickers goes over a scar on the board; "
         "cities cannot be cancelled."),
    Rule("RL-REWARD-CONTINENT-BONUS", WON, "The +1 or the -1 continent mark (one of each) goes next to a "
         "continent whose bonus has not been changed."),
    Rule("RL-REWARD-FORTIFY", WON, "One of the five Fortification marks goes on a city, even one already "
         "fortified (the old one's uses are lost)."),
    Rule("RL-REWARD-DESTROY-CARD", WON, "A Territory card still in the game is destroyed."),
    Rule("RL-REWARD-MINOR-CITY", HELD, "A Minor City (one of nine) is founded in a territory the player "
         "controlled at the end of the game that has no city."),
    Rule("RL-REWARD-UPGRADE", HELD, "The Territory card of a territory the player controlled at the end "
         "gets one resource, up to 6; Coin cards are never upgraded."),
    Rule("RL-WORLD-NAME", COMPLETED, "After the rewards of the 15th game, the person who signed the "
         "victors' section most often names the world (ties roll off, +1 per continent they named)."),
    Rule("RL-PACK", PACKS, "A sealed pack is opened when its condition is met: the 9th Minor City, the "
         "first elimination, a second signature, the World Capital, 3 Missiles on one roll, 30+ troops "
         "about to be placed by a player holding a Missile."),
    # --- campaigns ------------------------------------------------------------------------------
    Rule("RL-CAMPAIGN-WORLD", CAMPAIGN, "A campaign game starts from the world the campaign's previous "
         "games left (or, for game 1, the customized box)."),
    Rule("RL-CAMPAIGN-ORDER", CAMPAIGN, "A campaign's games are numbered 1, 2, 3... in the order played; "
         "a game names its campaign and number, and only a finished game is added."),
])
