"""Every rule the Warrior Knights engine enforces: an id, the section of the rules summary it
comes from (../shared/seeds/002, the base game; the sections are the summary's headings), and the
rule in words. docs/warrior-knights.md has the table and the rulings on the summary's gaps."""

from __future__ import annotations

from engine.core.rules import Rule, RuleBook

LOG = "ledger log format v1 (docs/log-format.md)"
R = Rule

RULES = RuleBook("warrior-knights", [
    # --- the log and the data -------------------------------------------------------------------
    R("WK-FLOW", "Game Round", "Events come in the order the game gives: the setup steps, then each "
      "round's Planning, Actions (stack by stack, each card resolved before the next is revealed, a "
      "Special Phase carried out entirely when triggered) and Upkeep."),
    R("WK-ACTOR", "Game Round", "An event names a player of the game as its actor, and a decision is "
      "made by the Baron whose decision it is."),
    R("WK-GAME-OVER", "Winning the Game", "Nothing is played after the game has ended."),
    R("WK-START", "Setup 1", "A game has 2 to 6 Barons, each of a different colour of the Baron cards."),
    R("WK-DATA-DIGEST", LOG, "A log that names the data it was recorded with is judged with the same "
      "board and cards files (their digests match)."),
    R("WK-SEED", LOG, "In digital play the cards are drawn with the game's seeded dice: the seed "
      "revealed is the one whose hash the game published, and each card drawn is the one the seed "
      "gives (engine/warrior_knights/live.py)."),
    R("WK-DECK", "Setup", "A card drawn from a deck the cards file lists is in that deck and has not "
      "been drawn since the deck was last shuffled; an empty deck is its discards shuffled."),
    R("WK-CARD", "Setup", "A drawn card is named by its id when the cards file lists its deck, and "
      "otherwise (observed mode) carries the printed fields the rules need."),
    R("WK-TRADE", "Setup", "Money may be traded freely between Barons (Vote or Faith tokens, "
      "Influence, charges, offices and troops may not)."),
    R("WK-ADJUST", "Neutral Actions 1) Important Event", "The effect of a free-text card is recorded as "
      "an adjustment signed by the seat that applied it, naming the card and what it changes; a Baron "
      "never has fewer than 0 crowns, Faith, Votes or Influence."),
    # --- setup -----------------------------------------------------------------------------------
    R("WK-SETUP-TROOPS", "Setup 1", "Each Baron is dealt 1 random 50 Mercenary and 1 random 100 "
      "Mercenary, besides his regular troops (3x50 and 1x100)."),
    R("WK-SETUP-ASSIGN", "Setup 1", "Each Baron assigns all his troops to his Nobles and/or his "
      "stronghold, each troop once."),
    R("WK-SETUP-RAZE", "Setup 3", "With fewer than 6 players, Kingdom cities are razed as Fate cards "
      "choose: 11 with 2 players, 7 with 3, 5 with 4, 3 with 5."),
    R("WK-SETUP-MARKET", "Setup 5", "Players + 1 Mercenary cards are placed face up near the "
      "Mercenary Track and 3 Agenda cards face up on the Current Agenda spaces."),
    R("WK-SETUP-OFFICES", "Setup 6", "The Chairman of the Assembly and the Head of the Church are "
      "chosen at random, by Fate card."),
    R("WK-SETUP-STRONGHOLD", "Setup 7", "Starting with the Chairman and going clockwise, each Baron "
      "places his stronghold on a Kingdom space without an unrazed city or another stronghold; with "
      "2 or 3 players only on the 16 central hexes."),
    R("WK-SETUP-NOBLES", "Setup 7", "Starting with the last player to place a stronghold and going "
      "counterclockwise, each player places one Noble who has troops in a Kingdom space without "
      "another player's Noble or stronghold, round after round until every Noble with troops is placed."),
    # --- the round -------------------------------------------------------------------------------
    R("WK-PLAN", "Game Round 1) Planning", "Each Baron places at most 2 Action cards from his hand face "
      "down in each of the 3 stacks."),
    R("WK-PLAN-COMMIT", "Game Round 1) Planning", "A plan given as a commitment is opened with the "
      "salt that makes the commitment, and holds exactly the cards revealed from its stacks."),
    R("WK-REVEAL", "Game Round 2) Actions", "The cards are revealed stack by stack, the first stack "
      "first: each from the current stack, a Baron's only while he has cards left in it, and 2 "
      "Neutral cards per stack."),
    R("WK-NEUTRAL-DECK", "Game Round 1) Planning", "The Neutral cards shuffled into the stacks come "
      "from the Neutral Action deck (no more copies of a card than the deck holds)."),
    R("WK-ACTION", "Actions", "The owner of a revealed Action card takes one of the actions listed on "
      "it, or declines."),
    R("WK-ALLOCATE", "Actions", "A resolved Action card is placed in the Special Phase area it lists "
      "(Mobilize Forces: the move's or the battle's area, the Baron choosing when both happen); a "
      "Versatile card returns to its owner's hand."),
    R("WK-SPECIAL", "Special Phases", "When an area holds players x 2 cards its Special Phase is "
      "triggered and carried out entirely before the next card; its cards then return to their owners."),
    # --- Baron actions ---------------------------------------------------------------------------
    R("WK-LEVY", "Actions 1) Levy Taxes", "Levy Taxes gives 1 crown for each area (Kingdom or "
      "overseas) holding one or more of the Baron's Nobles; Nobles on a port icon do not count."),
    R("WK-DRAFT-SPOT", "Actions 2) Draft Soldiers", "A Baron marker goes on a free space of the "
      "Mercenary Track in play (unnumbered, or numbered no higher than the number of players)."),
    R("WK-DRAFT-TRIGGER", "Actions 2) Draft Soldiers", "When the track holds players + 1 markers the "
      "Mercenary Draft is triggered, after a Wages phase triggered by the same card."),
    R("WK-RALLY", "Actions 3) Rally Support", "Rally Support gives 2 Votes; a Baron with more Votes "
      "than any other becomes Chairman of the Assembly."),
    R("WK-CHURCH", "Actions 4) Serve the Church", "Serve the Church gives 1 Faith; a Baron with more "
      "Faith than any other becomes Head of the Church."),
    R("WK-MOBILIZE", "Actions 5) Mobilize Forces", "Mobilize Forces moves unexhausted Nobles into one "
      "chosen area and/or starts a battle there; the Nobles that move or attack are exhausted."),
    R("WK-VERSATILE", "Actions 6) Versatile Action", "A Versatile card performs one action it lists; "
      "a marker placed on the Mercenary Track with it costs that space's fee."),
    # --- movement --------------------------------------------------------------------------------
    R("WK-MOVE", "Movement", "A Noble moves one area, or up to 3 areas when every step is along a road."),
    R("WK-MOVE-CROSSING", "Movement", "Mountainous borders are impassable and rivers are crossed only "
      "at bridges."),
    R("WK-MOVE-BLOCKED", "Movement", "An area holding another Baron's Noble or city cannot be passed "
      "through unless that Baron allows it."),
    R("WK-MOVE-EXHAUSTED", "Movement", "An exhausted Noble may not move or attack (he still defends)."),
    R("WK-MOVE-SEA", "Movement", "A Noble who starts in an area with a port may move by sea to any "
      "other port; he waits on the port icon and enters its area in the Upkeep."),
    R("WK-TRANSFER", "Movement", "Troops pass between armies in the same area only, from a stronghold "
      "or an unexhausted Noble (a moving Noble at any point of his move); troops leaving an army with "
      "casualty tokens leave all together, with the tokens."),
    # --- battles ---------------------------------------------------------------------------------
    R("WK-BATTLE", "Battles", "A battle needs the attacker's unexhausted Noble in an area with the "
      "defender's Noble, city or stronghold; one defender is chosen; a Noble on a port neither "
      "attacks nor is attacked; a Noble in an area with his own city is in the city."),
    R("WK-BATTLE-PERMISSION", "Battles", "A city is assaulted or besieged only by the only Baron "
      "with armies in its area (besides a defending owner), or with the others' permission."),
    R("WK-COMMANDER", "Open Field Battles", "Each side with Nobles present declares one of them as "
      "commander, the attacker first; his +200 strength and ability count, no other Noble's."),
    R("WK-FATE-COUNT", "Open Field Battles", "Each side draws one Fate card per 100 strength (troops "
      "+ 200 for a commander + the city's strength for a defended city - casualty tokens), at most 10."),
    R("WK-FATE-DISCARD", "Open Field Battles", "A side with a commander discards 2 or more of its "
      "Fate cards face down, keeping at least one; a side without one discards none."),
    R("WK-FATE-DRAW1", "Open Field Battles", "Each Draw 1 Fate result draws one more Fate card for its side."),
    R("WK-CASUALTIES", "Open Field Battles", "Each side takes 1 casualty token per 100 casualties "
      "dealt to it, on its fighting armies; a defended city may take them as breaches, up to its strength."),
    R("WK-BATTLE-OUTCOME", "Open Field Battles", "An army with casualties equal to its troops or more "
      "loses its Noble; if Nobles survive on both sides, 2 or more victories more kill the opposing "
      "Nobles and 1 more makes them retreat."),
    R("WK-CAPTURE", "City Assault", "A city is captured when all its defending Nobles are killed, its "
      "strength is 0 and an attacking Noble survives, or on a full or partial victory."),
    R("WK-SIEGE", "City Siege", "A siege needs more attacking strength than defending strength; a "
      "second siege by the same Baron in a later round, not lifted between, takes the city and kills "
      "its defenders."),
    R("WK-RAZE", "City Siege", "A city taken by assault or siege may be razed at once for 3 times its "
      "income; a razed city is never controlled again."),
    R("WK-RETREAT", "Retreats", "A retreating Noble goes to an adjacent area without a city or another "
      "Baron's Nobles (never by sea), or else exhausted to his stronghold; with nowhere to go he dies."),
    R("WK-DESERTERS", "Retreats", "Before a Noble retreats or is removed, a Fate card is drawn: a "
      "Mercenary of its nationality in the army deserts, as the Baron chooses."),
    R("WK-NOBLE-DEATH", "Noble Death", "A dead Noble's army discards 100 strength of Mercenaries per "
      "casualty token (regulars never), he is removed with his offices, and his heir may enter in "
      "the Upkeep with the troops left."),
    R("WK-STRONGHOLD", "Attacking a Stronghold", "A Baron who eliminates a stronghold takes half its "
      "owner's crowns (rounded down) and one city of the owner's choice; the owner gains no "
      "Influence that round and may place it again in the Upkeep."),
    # --- Neutral actions -------------------------------------------------------------------------
    R("WK-EVENT", "Neutral Actions 1) Important Event", "The Head of the Church chooses who draws the "
      "Event card: blue anyone; red himself, or another for 1 Faith; green another, or himself for 1 Faith."),
    R("WK-EVENT-TARGET", "Neutral Actions 1) Important Event", "An Event that needs a random target "
      "has it drawn by Fate card from the Fate deck, once, before it is cancelled or applied (it may "
      "still be cancelled after); an Event that needs none draws none."),
    R("WK-EVENT-CANCEL", "Neutral Actions 1) Important Event", "An Event is cancelled by paying the "
      "Faith it lists, pooled by any Barons (a red one only by its drawer)."),
    R("WK-EXPEDITION", "Neutral Actions 2) Fund Expedition", "The Chairman may start an expedition "
      "not under way, each Baron investing up to 5 crowns; the others advance one spot; one on the "
      "3 spot draws a Fate card (two if blessed, the better counts): No News stays, Fleet Lost loses "
      "the money, a multiplier pays each investor his stake times it."),
    R("WK-UPGRADE", "Neutral Actions 3) Upgrade Defenses", "Starting with the Chairman, each Baron may "
      "repair one city he controls (2 crowns per breach) or fortify one (4 crowns; never a stronghold)."),
    R("WK-MUSTER", "Neutral Actions 4) Muster Troops", "Starting with the Chairman, each Baron may "
      "remove casualty tokens from one army at 2 crowns each."),
    # --- Special Phases --------------------------------------------------------------------------
    R("WK-TAXATION", "Special Phases 1) Taxation", "Each Baron receives the income of his cities (a "
      "fortified one 1 more, a besieged one none) and concessions."),
    R("WK-WAGES", "Special Phases 2) Wages", "Starting with the Chairman, each Baron pays his regular "
      "troops' wages first, as many as he can, then the Mercenaries he keeps; an unpaid Mercenary deserts."),
    R("WK-ASSEMBLY", "Special Phases 3) Assembly", "Attending Barons (not banned, not barred by a "
      "charge) receive 1 Vote plus 1 per Kingdom city; an absent Chairman appoints an acting one."),
    R("WK-ASSEMBLY-PRIVATE", "Special Phases 3) Assembly", "A Baron chosen by Fate card may force one "
      "vote on a private motion: rescind a ban, discard a law, charge or office, postpone the "
      "Assembly, or re-vote a discarded Agenda."),
    R("WK-ASSEMBLY-ORDER", "Special Phases 3) Assembly", "The Chairman declares the order in which the "
      "current Agendas are voted."),
    R("WK-VOTES", "Special Phases 3) Assembly", "Attending Barons hide votes (no more than they hold) "
      "and reveal them together; then, from the Chairman clockwise, declare how they cast them; the "
      "votes are spent."),
    R("WK-VOTE-RESULT", "Special Phases 3) Assembly", "The most votes carry an Agenda; the Chairman "
      "breaks a tie as he chooses among the tied choices."),
    R("WK-AGENDA", "Special Phases 3) Assembly", "A law stays in effect, a charge goes to a Baron "
      "(at most 3: a fourth makes him discard one of the original 3), an office to one of the "
      "chosen Baron's Nobles."),
    R("WK-OFFICE-TROOPS", "Special Phases 2) Wages", "Troops an office maintains need no wages: the "
      "Baron names them when he pays, troops of his whose strength is within what the offices his Nobles "
      "hold print; they are neither paid nor let go."),
    R("WK-MERC-DRAFT", "Special Phases 4) Mercenary Draft", "In marker order on the track, left to "
      "right, each marker's owner may hire one available Mercenary for its wage (several of one "
      "nationality with as many markers); then the rest are shuffled away and players + 1 new ones drawn."),
    R("WK-MERC-ASSIGN", "Special Phases 4) Mercenary Draft", "A hired Mercenary goes to a Noble at the "
      "Baron's city or stronghold, a Noble off the board, or the stronghold."),
    # --- Upkeep and winning ----------------------------------------------------------------------
    R("WK-WIN-CITIES", "Winning the Game", "At the Upkeep's victory check a Baron who controls more "
      "than half of the unrazed Kingdom cities (5 in a 2-player game) wins."),
    R("WK-INFLUENCE", "Game Round 3) Upkeep", "Each Baron gains 1 Influence per city he controls that "
      "is not besieged, none if his stronghold is off the board; when the pool runs out the game "
      "ends after that Upkeep."),
    R("WK-REVOLT", "Game Round 3) Upkeep", "A Fate card is drawn for each city a Baron controls without "
      "one of his Nobles in its area; on Revolt the city becomes neutral unless he pays 1 Faith or "
      "twice its income."),
    R("WK-RETURN", "Returning Nobles to the Board", "In the Upkeep, from the Chairman clockwise, an "
      "off-board Noble with troops may be placed at his Baron's stronghold or an unbesieged city he controls."),
    R("WK-WIN-INFLUENCE", "Winning the Game", "When the Influence pool has run out the Baron with the "
      "most Influence wins; ties go to most cities, then most crowns + Faith + Votes, then most "
      "troops; else there is no winner."),
    R("WK-RESULT", "Winning the Game", "A declared result names the winner the rules give."),
    # --- Crown & Glory ---------------------------------------------------------------------------
    R("WK-CG-VARIANTS", "Crown & Glory Expansion", "A game names the Crown & Glory variants it plays "
      "(For Glory, Missions, The King), each once; they combine freely."),
    R("WK-KING-POOL", "The King Variant: Setting Up", "With The King the Influence pool starts with 8 "
      "Influence per player."),
    R("WK-KING-CROWN", "The King Variant: Playing with the Variant", "When the Influence pool runs "
      "out, the Baron with the most Influence (ties broken as normal) becomes King and the game goes "
      "on; Influence then comes from the treasury."),
    R("WK-KING-ARMY", "The King Variant: Playing with the Variant", "A new King at once gains as many "
      "King's Army cards as there are players, assigned to his stronghold and/or his Nobles at his "
      "stronghold or cities he controls; they are regular troops, never desert, are paid before any "
      "Mercenary, and are lost only to a new King."),
    R("WK-KING-INFLUENCE", "The King Variant: Playing with the Variant", "The King receives 1 more "
      "Influence in the Influence step of every later Upkeep."),
    R("WK-KING-USURP", "The King Variant: Usurping the King", "A Baron who wins an attack against the "
      "King's stronghold takes the King token and all the King's Army cards and assigns them."),
    R("WK-KING-END", "The King Variant: Winning the Game", "The game ends at the end of a round in "
      "which a Baron has at least 16 Influence; the most Influence wins (ties broken as normal)."),
    R("WK-MISSION-DEAL", "Missions Variant", "Before the strongholds are placed each Baron is dealt "
      "1 Mission card, secret from the others (the deck the cards file lists, one card each)."),
    R("WK-MISSION-REVEAL", "Missions Variant", "At the end of the game, starting with the Chairman and "
      "going clockwise, each Baron reveals his Mission (the card committed to or dealt to him); one he "
      "fulfils is worth 2 Influence (his signed ruling of its text). With The King, Missions are not "
      "fulfilled when the pool runs out."),
    R("WK-RIOT", "For Glory: New Revolt Result: Riot", "A Riot drawn for a Revolt: the owner pays "
      "twice the city's income or 1 Faith, or a riot token goes on the city; a Riot drawn for a city "
      "already rioting is a Revolt."),
    R("WK-RIOT-EFFECT", "For Glory: New Revolt Result: Riot", "A rioting city gives no crowns in "
      "Taxation and no Influence in the Upkeep; its riot token goes when its Baron has a Noble or a "
      "Garrison there or loses the city."),
    R("WK-GARRISON", "For Glory: Garrisons", "With Upgrade Defenses each Baron may hire one Garrison "
      "for 1 crown on an ungarrisoned city he controls, while fewer than all the Garrisons (8) are "
      "hired; it adds its strength to the city defending and is lost with the city."),
    R("WK-GARRISON-WAGES", "For Glory: Garrisons", "Each Garrison is paid in every Wages phase; an "
      "unpaid one is discarded."),
    R("WK-TOWN-LEVY", "For Glory: Town Levies", "With Muster Forces a Baron may recruit Town Levies "
      "for 2 crowns each, each for a Noble of his at the city on the card, which he controls; a Levy "
      "another Noble holds may not be recruited."),
    R("WK-TOWN-LEVY-LOSS", "For Glory: Town Levies", "Town Levies draw no wages; a Noble's Town Levies "
      "are all discarded when a Mercenary of his deserts in a Wages phase, and when he dies."),
    R("WK-FATE-GLORY", "For Glory: New Fate Deck", "With the For Glory Fate deck each side draws at "
      "most 20 Fate cards at the start of a battle."),
    R("WK-KNOWLEDGE", "For Glory: New Baron Action Cards", "Enrich Mind gives 1 Knowledge; the card then "
      "goes to the Taxation or the Assembly stack, as its owner decides."),
    R("WK-SCHOLAR", "For Glory: The Scholar Token", "After Enrich Mind a Baron with more Knowledge than any "
      "other takes the Scholar token; at the setup (3 or more players) it goes to a random Baron who is "
      "neither the Head of the Church nor the Chairman."),
    R("WK-ADVANCEMENT-BUY", "For Glory: Purchasing Advancements", "With Enrich Mind a Baron buys one of "
      "the 3 Advancements face up (the Scholar as many as he can afford) for the Knowledge it prints; "
      "each is replaced at once from the deck; he owns one copy of each and at most 3 (the excess to "
      "the bottom of the deck)."),
    R("WK-ADVANCEMENT-USE", "For Glory: Using Advancement Cards", "An Advancement is activated by its "
      "owner at the time it prints and exhausted if it says so until the Upkeep's refresh; in a battle "
      "one per player, declared after drawing the Fate cards and before discarding them."),
    R("WK-RESEARCH", "For Glory: New Neutral Action Cards", "Research: the Scholar may pay 2 crowns to "
      "draw the top Advancement, then buy it for 1 Knowledge less (at least 0) or discard it."),
    R("WK-ADVANCEMENT-SWAP", "For Glory: New Neutral Action Cards", "Uncertain Times also lets the "
      "Scholar discard one of the Advancements face up and replace it with the top card of the deck."),
    R("WK-FORCED-MARCH", "For Glory: New Baron Action Cards", "Forced March refreshes one exhausted Noble "
      "for free and any others for 2 crowns each; the card goes to the Wages stack."),
    R("WK-RETREAT-GLORY", "For Glory: New Combat Result: Retreat/Draw 1 Fate", "Once the Fate cards are "
      "revealed, a Baron defending with Nobles who has more Retreat/Draw 1 Fate results than the attacker "
      "may retreat: no casualties are dealt and no Mercenary deserts, his Nobles retreat, and his city or "
      "stronghold there goes to the attacker as after a won assault; otherwise (and for a neutral city) "
      "each such result is a Draw 1 Fate."),
    R("WK-EVENT-GLORY", "For Glory: Event Deck Setup", "At the setup red Events on top of the Event deck "
      "go to its bottom until a green or blue one is on top: the game's first Event is not red."),
    R("WK-PRESSING-AGENDA", "For Glory: New Neutral Action Cards", "A Pressing Agenda draws the top "
      "Agenda card face up with the current Agendas (voted on with them at the next Assembly); the card "
      "then goes to the Assembly stack, where it may trigger an Assembly, and is out of the Neutral deck "
      "until that Assembly returns it."),
    R("WK-ASSEMBLE-TROOPS", "For Glory: New Neutral Action Cards", "Assemble Troops draws the top "
      "Mercenary card face up with those available for drafting and puts a casualty token on the first "
      "free space of the Mercenary Track in play: the space is full (the track full triggers a Draft at "
      "once) and no Baron marker may go there; a Draft begins by removing the tokens and skips their spaces."),
    R("WK-LEADER-HERALD", "For Glory: New Mercenary Cards", "Each Noble may only have a single Leader "
      "and a single Herald at any given time (hired, assigned or transferred to him)."),
    R("WK-LEADER-SETUP", "For Glory: New Mercenary Cards", "Leaders and Heralds are not given out to the "
      "Barons as 50 strength Mercenaries during the setup."),
    R("WK-LEADER-ABILITY", "For Glory: New Mercenary Cards", "A Leader's or Herald's ability is its Noble's, "
      "usable even when he is exhausted: its effect is recorded as an adjustment naming the card, signed "
      "by its owner, while the card is with a living Noble of his."),
    R("WK-NEUTRAL-GLORY", "For Glory: Playing with new Neutral Action Cards", "With For Glory 3 Neutral "
      "cards (not 2) are placed in each of the 3 stacks."),
])
