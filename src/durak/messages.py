"""Messages as data: every sentence the library says has a stable code and parameters.

A :class:`Message` is a :class:`str` (its English text, so ``str(error)`` and old code keep
working) that also carries a :attr:`~Message.code` and the :attr:`~Message.params` the text was
made from. A front-end says it in its own language and voice with
:meth:`durak.i18n.Language.say`, or from the code and parameters alone.

>>> from durak.cards import Card
>>> m = message("illegal.not-in-hand", card=Card.parse("9c"), player=0)
>>> str(m), m.code, dict(m.params)
("9c is not in player 0's hand", 'illegal.not-in-hand', {'card': Card('9c'), 'player': 0})

**One convention for every code and every error.**

- A code is ``family.name``: the family says what kind of text it is, the name (lower case,
  words joined by ``-``) which one. The families: ``illegal.`` (why an action is illegal:
  :class:`~durak.errors.IllegalActionError`), ``rules.`` (:class:`~durak.errors.RulesError`),
  ``card.`` (:class:`~durak.errors.InvalidCardError`), ``input.`` (other
  :class:`~durak.errors.InvalidError` and arguments), ``seat.``
  (:class:`~durak.errors.SeatError`), ``position.`` (:class:`~durak.errors.PositionError`),
  ``error.`` (an error's whole sentence, which holds its reason), ``action.`` and ``event.``
  (descriptions), ``move.`` (what a player types, read in a position: :mod:`durak.moves`),
  ``game.`` (a game's history and its typed questions: :class:`durak.Game`,
  :meth:`durak.GameState.outcome`), ``server.`` (:mod:`durak.web`). The one code without a
  family is ``other``:
  plain text (a house rule's reason), carried as ``params["text"]``.
- Every :class:`~durak.errors.DurakError` has ``error.message``, its whole sentence (``str(error)``
  is its English text; ``error.illegal-action``, ``error.rules`` and ``error.at`` wrap a reason
  with the player, setting or place it concerns), and ``error.reason``, ``error.code`` and
  ``error.params``, the reason's. ``Language(lang).say(error.message)`` says all of it.
- Parameters are typed by their name, the same everywhere (the table below): seats, counts,
  bounds and places are ``int``; cards, ranks and suits the library's types; a value the caller
  gave (``given``) is text, quoted and cut short by one helper (``brief`` of the library's
  input guards, which describes a 5,000-digit integer instead of writing it, so that no
  message ever fails to be made or said);
  names (``setting``, ``field``, ``near``, ``known`` ...) are text; a nested sentence is a
  :class:`Message`.
- The first releases named the reasons of an illegal action without a family (``not-in-hand``):
  :data:`ALIASES` maps each to its ``illegal.`` code, and :func:`message`,
  :func:`english` and :meth:`durak.i18n.Language.template` still accept the old codes.

**The codes are public API**: they do not change meaning within a major version. Each code's
English template is in :data:`TEMPLATES` (``{name}`` marks a parameter); a code with a ``:you``
twin (``illegal.not-in-hand:you``) has a second text for a front-end that addresses the player
named by ``player`` as "you". Where "you" is the seat named by ``to``, ``partner`` or
``defender`` instead, German, Polish and Russian inflect it, so ``event.transferred``,
``event.shown`` (``to``), ``event.left`` (``partner``), ``event.led`` and ``event.new-bout``
(``defender``) have a ``:to-you``, ``:partner-you`` or ``:defender-you`` twin for that case
(``event.transferred:to-you``: "player 2 transferred with 7h to you"); the ``:you`` twin comes
first when ``player`` is "you" too.

Parameters by name (the same name means the same kind of value everywhere):

================================================  ==============================================
name                                              value
================================================  ==============================================
``player``, ``defender``, ``attacker``, ``to``,   a seat number (English: ``player 2``)
``target``, ``partner``
``players``                                       a tuple of seat numbers
``card``, ``attack``, ``face_up``                 a :class:`~durak.cards.Card`
``cards``                                         a tuple of cards
``rank``                                          a :class:`~durak.cards.Rank` (or the text of a
                                                  card outside the 52)
``trump``                                         a :class:`~durak.cards.Suit`
``n``                                             a count: it chooses the plural form
``place``                                         a finishing place, 1 or more (an ordinal)
``limit``, ``cap``, ``hand``, ``seat``,           a whole number (``seat``, ``other`` and
``count``, ``expected``, ``index``                ``expected`` of a position's texts: a seat
                                                  number, written as it is; ``index`` a
                                                  record's action, from 0)
``action``                                        an action's description (itself a message)
``kind``, ``throwers``, ``rule``, ``text``        text, not translated (a class name, a setting's
                                                  value, a module's description, a rule id)
``detail``, ``given``, ``known``, ``where``,      text, not translated: a reason of the library's
``preset``, ``notation``                          readers in English, a value as the client sent
                                                  it (quoted, cut short), a list of known names,
                                                  a JSON path, a preset's name, an action in the
                                                  notation (``p0 take``)
``reason``                                        why a rule refuses an action (a message)
``other``                                         a seat number, written as it is (``P{other}``)
``low``, ``high``, ``decks``, ``size``            a whole number (a setting's bounds, the number
                                                  of decks and their size)
``need``, ``total``                               a number of cards (the cards a deal needs, the
                                                  cards in play)
``teams``                                         a tuple of messages, said as a list
``asked``                                         a number as the command line asked for it
                                                  (``--players``)
``setting``, ``field``                            text: a setting's name, a position's field
``near``                                          text: the known name nearest to an unknown one
                                                  ("did you mean ...?")
================================================  ==============================================

Reason codes of :class:`~durak.errors.IllegalActionError` (``error.code``: ``illegal.`` and a
name below, ``illegal.not-in-hand``; the rule id is ``error.rule``):

- ``game-over`` (R7.3), ``no-seat`` (R2.1), ``player-out`` (R7.1), ``no-module`` (R13.1): the
  engine's checks before any rule module.
- ``not-in-hand`` (R13.1), ``listed-twice`` (R1.2): the cards named are not the player's.
- ``not-led`` (R4.2), ``not-defender`` (R4.1), ``already-taken`` (R4.8), ``all-beaten``
  (R4.7, R4.8, R9.1): defending.
- ``already-led``, ``not-leader``, ``lead-single``, ``lead-one-rank``, ``lead-over-limit``
  (R4.1, R4.2, R4.6): the lead.
- ``defender-throws``, ``defender-passes``, ``not-thrower``, ``has-passed``,
  ``taken-no-throw``, ``table-full``, ``attacker-first``, ``rank-not-on-table``,
  ``nothing-to-pass`` (R4.3-R4.9): throwing in and passing.
- ``not-unbeaten``, ``no-beat``, ``no-beat-module`` (R4.7, R8): beating.
- ``beaten-already``, ``no-transfer-first``, ``no-transfer-target``, ``transfer-over-limit``,
  ``transfer-one``, ``not-attack-rank``, ``not-trump``, ``shown-already`` (R9): transfers.
- ``no-exchange-right``, ``face-up-drawn``, ``no-face-up``, ``face-up-same`` (R12.1): the
  trump-six exchange.
- ``redeal-late``, ``no-misdeal``, ``redeal-no-seed`` (R12.2): misdeal redeals.
- ``off-transfer-by-card``, ``off-transfer-by-show``, ``off-exchange``, ``off-misdeal``: an
  action of a rule that is switched off.
- ``joker-no-transfer`` (R15.1), ``transfer-mixed-ranks`` (R15.2, R15.5): the extensions'
  transfers.
- ``cheat-beat-caught``, ``caught-cheating``, ``nothing-to-catch``, ``not-on-table``,
  ``not-a-cheat``, ``own-cheat`` (R15.5): cheating and catching.
- ``other``: a reason a house rule gave as plain text (``params["text"]``).

Reason codes of :class:`~durak.errors.RulesError` (``error.code``, ``error.params``; the
setting is ``error.setting``), for the errors a player meets before a game starts:
``rules.unknown-preset``, ``rules.unknown-setting``, ``rules.unknown-value``,
``rules.not-integer``, ``rules.not-integer-or-none``, ``rules.out-of-range``, ``rules.too-small``,
``rules.not-bool``, ``rules.deck-size``, ``rules.deal-too-big`` and ``rules.deal-too-big-decks``
(R2.1: the players and hand size a deck cannot deal), ``rules.listing-too-large`` (settings
whose largest listing passes :data:`~durak.rules.MAX_LISTING`), ``rules.preset-teams`` (R10: a team
preset's players count; its ``teams`` are ``rules.team-preset`` messages),
``rules.bots-players`` (the command line's ``--bots`` and ``--players`` disagree),
``rules.no-weights`` (rules the learned agent has no weights for: :mod:`durak.agent`), and the
settings' forms and combinations: ``rules.not-teams``, ``rules.team-not-list``,
``rules.seat-not-integer``, ``rules.teams-split``, ``rules.teams-small``,
``rules.teams-alternate`` (R10.1), ``rules.not-house-rules``, ``rules.house-rule-not-text``,
``rules.house-rule-extension``, ``rules.house-rule-twice``, ``rules.unknown-house-rule``,
``rules.no-house-rule`` (and their ``-extension`` twins naming the R15 setting),
``rules.not-suits``, ``rules.suit-not-letter``, ``rules.jokers-deck``,
``rules.jokers-copies`` (R15.1), ``rules.show-sends-back-alone`` (R15.3),
``rules.several-alone`` (R9.4), ``rules.over-cards``, ``rules.over-hand-size``; and the
readers of presets and rules files: ``rules.preset-not-text``, ``rules.preset-not-name``,
``rules.not-a-table``, ``rules.setting-not-text``, ``rules.unknown-format``,
``rules.not-text-file``. An unknown
preset, setting or value near a known one has a ``-near`` twin that suggests it
(``rules.unknown-preset-near``, ``rules.unknown-setting-near``, ``rules.unknown-value-near``,
with ``near``: "unknown preset 'perevodnoi'; did you mean perevodnoy?"). Another rules error
has the code ``other`` and its English text as ``params["text"]``.

The whole sentences of errors (``error.message``): ``error.illegal-action`` ("player 0 cannot
take: ... (R4.2)", with ``player``, ``action``, ``reason``, ``rule``; its ``:you`` twin "you
cannot take: ..."), ``error.rules`` ("players: ...", with ``setting`` and ``reason``),
``error.at`` (a record's problem at a JSON path: ``where`` and ``reason``). Other reasons of
errors: ``card.`` (:class:`~durak.errors.InvalidCardError`: ``card.not-text``,
``card.several``, ``card.copy-apart``, ``card.control-character``, ``card.too-short``,
``card.bad-part`` (its ``reason`` is a rank's or suit's), ``card.suit-not-text``,
``card.not-a-suit``, ``card.rank-not-text``, ``card.not-a-rank``, ``card.not-a-value``,
``card.no-such-card``, ``card.no-rank``, ``card.no-suit``, ``card.first-copy``,
``card.copy-zeros``, ``card.copy-suffix``, ``card.no-deck``, ``card.decks``,
``card.not-cards``), ``input.`` (``input.no-cards``, ``input.not-a-seat``,
``input.seat-too-big``: an action's arguments; ``input.unknown-language``;
``input.weights``: a network's weights file (the learned agent's, the leaf values'),
:class:`durak.agent.WeightsError`;
``input.unknown-level``, ``input.unknown-bot`` and their ``-near`` twins:
:mod:`durak.levels`), ``seat.no-seat``
(:class:`~durak.errors.SeatError`), ``position.`` (``position.not-a-seat``,
``position.not-a-count``, ``position.not-bool``: a field of
:func:`~durak.engine.new_position`; ``position.card-twice``, ``position.card-not-in-deck``,
``position.cards-missing`` (``-more`` when more than eight are missing), the table's form
(``position.table-not-pairs``, ``position.table-not-pair``, ``position.table-not-cards``),
``position.not-seats``, ``position.hands-count``, ``position.places-count``,
``position.known-count``, ``position.entries-count``, the trump (``position.no-trump``,
``position.trump-contradicts``, ``position.trump-not-suit``, ``position.trump-card-not-card``,
``position.trump-card-not-face-up``, ``position.trump-card-suit``, ``position.no-face-up``),
``position.game-over-hands``, ``position.game-over-team``, ``position.first-bout-bouts``,
``position.rules-type``, ``position.defences-over``, ``position.place-range``,
``position.left-no-place``, ``position.known-stray``, ``position.known-face-up``,
``position.exchange``, ``position.over-table``, ``position.over-places``); a hand-built
state's forms (``position.form``, ``position.entry-form``, ``position.card-form``,
``position.or-none``); the places (``position.place-order``, ``position.left-partner``,
``position.placed-with-cards``, ``position.places-over``, ``position.places-too-few``); and a
bout in play (``position.defender-own``, ``position.defender-clockwise``,
``position.defender-next``, ``position.defender-out``, ``position.defender-empty``,
``position.defender-hand``, ``position.attacker-out``, ``position.attacker-empty``,
``position.leader-defends``, ``position.no-beat``, ``position.rank-alone``,
``position.over-limit``, ``position.over-hand``, ``position.taken-beaten``,
``position.joined-form``, ``position.joined-count``, ``position.passed-not-thrower``,
``position.passed-illegal``, ``position.shown``, ``position.no-bout``,
``position.bout-over``); what the endgame solver refuses (``position.endgame-stock``,
``position.endgame-players``, ``position.endgame-teams``, ``position.endgame-house-rules``,
``position.endgame-redeal``). The errors of records and the notation, and a house rule's own
position checks, have the code ``other`` for now: their English text.

Action descriptions (:meth:`Lead.describe <durak.actions.Lead.describe>` ...): ``action.lead``,
``action.throw``, ``action.beat``, ``action.take``, ``action.pass``, ``action.transfer``,
``action.show``, ``action.exchange``, ``action.redeal``, ``action.catch`` (R15.5).
``action.lead`` and ``action.transfer`` (and the events ``event.led`` and
``event.transferred``) carry the number of their cards as ``n``, for the plural of a language
that inflects the noun before the list ("kartami", "картами").

Event descriptions (:func:`durak.events.describe_event`): ``event.led``, ``event.thrown-in``,
``event.beaten``, ``event.transferred``, ``event.shown``, ``event.take``, ``event.passed``,
``event.exchanged``, ``event.redealt``, ``event.acted``, ``event.picked-up``,
``event.discarded``, ``event.drew``, ``event.drew-cards``, ``event.drew-face-up``,
``event.out``, ``event.left``, ``event.new-bout``, ``event.durak``, ``event.draw``,
``event.losers``.

The web server's texts (:mod:`durak.web`: the ``code`` of its HTTP and WebSocket errors, with
``params`` beside the English ``error`` or ``message``), all prefixed ``server.``:

- a request of the set-up and replay pages: ``body-too-big``, ``settings-not-json``,
  ``settings-not-object``, ``record-not-json``, ``no-table``, ``bad-game-number``,
  ``no-record``, ``record-unfinished``, ``record-too-long``, ``not-a-record``;
- a table's settings (``400``): ``unknown-key``, ``rules-not-object``, ``preset-not-name``,
  ``unknown-preset``, ``no-seats``, ``unknown-seat-kind``, ``no-person``, ``no-fixed-seeds``,
  ``seed-type``, ``seed-number``, ``seed-text``, ``timer-type``, ``timer-range``,
  ``preset-in-rules``, ``players-mismatch``, ``bad-rules``, ``cannot-deal``;
- the server's limits: ``too-many-tables`` (``429``), ``server-full`` (``503``),
  ``table-crowded`` and ``client-crowded`` (close code 4429), ``origin-refused`` (4403);
- a WebSocket message refused: ``message-too-long``, ``not-understood``, ``unknown-type``,
  ``no-seat-to-leave``, ``onlooker-acts``, ``game-over``, ``not-started``, ``not-your-seat``,
  ``illegal-action`` (its ``reason`` is the rule's reason, its ``rule`` the rule id),
  ``not-allowed-now``, ``onlooker-restart``, ``game-running``;
- the engine service (``POST /api/engine``): ``engine-not-object``, ``engine-unknown-field``,
  ``engine-too-big``, ``engine-not-json``, ``engine-rules-type``, ``engine-no-state``,
  ``engine-seed-type``, ``engine-bad-seed``, ``engine-both``, ``engine-state-type``,
  ``engine-rules-differ``, ``engine-bad-state``, ``engine-bad-action``, ``engine-illegal``
  (``422``), ``engine-bad-player``.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any, cast

from durak._input import Reason

__all__ = [
    "ALIASES",
    "PLAYER_PARAMS",
    "TEMPLATES",
    "Message",
    "as_message",
    "canonical",
    "english",
    "is_number",
    "message",
]

#: Parameter names whose value is a seat.
PLAYER_PARAMS = frozenset({"player", "defender", "attacker", "to", "target", "partner"})


def _m(code: str, text: str) -> tuple[str, tuple[str, str | None]]:
    """A code and its English text (the marker the catalog extraction looks for)."""
    return code, (text, None)


def _mp(code: str, singular: str, plural: str) -> tuple[str, tuple[str, str | None]]:
    """A code whose text depends on the count ``n``: the singular and the plural English text."""
    return code, (singular, plural)


#: Every code's English template: ``code -> (text, plural text or None)``.
TEMPLATES: Mapping[str, tuple[str, str | None]] = MappingProxyType(
    dict(
        (
            # -- reasons: the engine ---------------------------------------------------------
            _m("illegal.game-over", "the game is over"),
            _m("illegal.no-seat", "there is no seat {seat} in a {count}-player game"),
            _m("illegal.player-out", "{player} is out of the game"),
            _m("illegal.player-out:you", "you are out of the game"),
            _m("illegal.no-module", "no rule module in force plays a {kind} action"),
            # -- reasons: cards and defending ------------------------------------------------
            _m("illegal.not-in-hand", "{card} is not in {player}'s hand"),
            _m("illegal.not-in-hand:you", "{card} is not in your hand"),
            _m("illegal.listed-twice", "{card} is listed more than once"),
            _m("illegal.not-led", "no bout has been led yet"),
            _m("illegal.not-defender", "{defender} is the defender"),
            _m("illegal.already-taken", "the defender has already taken"),
            _m("illegal.all-beaten", "every attack card is beaten"),
            # -- reasons: the lead -----------------------------------------------------------
            _m("illegal.already-led", "the bout has already been led; throw in instead"),
            _m("illegal.not-leader", "{attacker} leads this bout"),
            _m("illegal.lead-single", "the lead is a single card under lead = single"),
            _m("illegal.lead-one-rank", "a lead of several cards must be of one rank"),
            _mp(
                "illegal.lead-over-limit",
                "{n} attack card exceeds the limit of {limit} (cap {cap}, defender holds {hand})",
                "{n} attack cards exceed the limit of {limit} (cap {cap}, defender holds {hand})",
            ),
            # -- reasons: throwing in and passing --------------------------------------------
            _m("illegal.defender-throws", "the defender cannot throw in against himself"),
            _m(
                "illegal.defender-passes",
                "the defender does not pass: he beats the attack cards or takes",
            ),
            _m("illegal.not-thrower", "{player} is not a thrower in this bout ({throwers})"),
            _m("illegal.not-thrower:you", "you are not a thrower in this bout ({throwers})"),
            _m("illegal.has-passed", "{player} has passed and the table has not changed since"),
            _m("illegal.has-passed:you", "you have passed and the table has not changed since"),
            _m("illegal.taken-no-throw", "the defender has taken and throw_after_take is off"),
            _mp(
                "illegal.table-full",
                "the bout already holds {n} attack card, its limit "
                "(cap {cap}, defender's hand {hand})",
                "the bout already holds {n} attack cards, its limit "
                "(cap {cap}, defender's hand {hand})",
            ),
            _m("illegal.attacker-first", "the main attacker ({attacker}) throws in first"),
            _m("illegal.rank-not-on-table", "no card of rank {rank} is on the table"),
            _m(
                "illegal.nothing-to-pass",
                "{player} has nothing to throw in, so there is nothing to pass",
            ),
            _m(
                "illegal.nothing-to-pass:you",
                "you have nothing to throw in, so there is nothing to pass",
            ),
            # -- reasons: beating ------------------------------------------------------------
            _m("illegal.not-unbeaten", "{attack} is not an unbeaten attack card on the table"),
            _m("illegal.no-beat", "{card} does not beat {attack} (trump {trump})"),
            _m("illegal.no-beat-module", "{card} does not beat {attack}: {rule}"),
            # -- reasons: transfers ----------------------------------------------------------
            _m("illegal.beaten-already", "a card of this bout has already been beaten"),
            _m("illegal.no-transfer-first", "no transfer in the game's first bout"),
            _m(
                "illegal.no-transfer-target",
                "there is no other active player to pass the attack to",
            ),
            _mp(
                "illegal.transfer-over-limit",
                "{n} attack card would exceed the new defender's limit of {limit} "
                "(cap {cap}, {target} holds {hand})",
                "{n} attack cards would exceed the new defender's limit of {limit} "
                "(cap {cap}, {target} holds {hand})",
            ),
            _m("illegal.transfer-one", "a transfer adds one card (transfer_several is off)"),
            _m("illegal.not-attack-rank", "{card} is not of the attack rank {rank}"),
            _m("illegal.not-trump", "{card} is not a trump"),
            _m("illegal.shown-already", "{card} has already been shown in this bout"),
            # -- reasons: the trump-six exchange and misdeals --------------------------------
            _m(
                "illegal.no-exchange-right",
                "{card} gives no right to exchange: only the deck's lowest trump, dealt or drawn "
                "and held ever since, does",
            ),
            _m("illegal.face-up-drawn", "the face-up trump card has already been drawn"),
            _m("illegal.no-face-up", "no face-up trump card lies under the stock, only jokers"),
            _m("illegal.face-up-same", "the face-up card is itself {card}"),
            _m("illegal.redeal-late", "a redeal may be demanded only before the first lead"),
            _mp(
                "illegal.no-misdeal",
                "{player} holds fewer than {n} card of every suit",
                "{player} holds fewer than {n} cards of every suit",
            ),
            _mp(
                "illegal.no-misdeal:you",
                "you hold fewer than {n} card of every suit",
                "you hold fewer than {n} cards of every suit",
            ),
            _m(
                "illegal.redeal-no-seed",
                "the game was dealt from an explicit deck order, which gives no redeal",
            ),
            # -- reasons: rules switched off -------------------------------------------------
            _m("illegal.off-transfer-by-card", "transfer by card is off (transfer_by_card)"),
            _m(
                "illegal.off-transfer-by-show",
                "transfer by showing a trump is off (transfer_by_showing_trump)",
            ),
            _m("illegal.off-exchange", "the trump-six exchange is off (trump_six_exchange)"),
            _m("illegal.off-misdeal", "misdeal redeals are off (misdeal_suit_count)"),
            # -- reasons: the extensions (R15) ---------------------------------------------
            _m(
                "illegal.joker-no-transfer",
                "a joker is never a transfer card; a joker led must be taken",
            ),
            _m(
                "illegal.transfer-mixed-ranks",
                "a transfer needs every attack card on the table to share one rank (R9.1)",
            ),
            _m("illegal.cheat-beat-caught", "a cheat beat was caught: the defender takes at once"),
            _m(
                "illegal.caught-cheating",
                "{player} was caught cheating: he counts as passed for the rest of the bout",
            ),
            _m(
                "illegal.caught-cheating:you",
                "you were caught cheating: you count as passed for the rest of the bout",
            ),
            _m("illegal.nothing-to-catch", "no bout is running, so there is nothing to catch"),
            _m("illegal.not-on-table", "{card} is not on the table"),
            _m("illegal.not-a-cheat", "{card} is not a cheat: it was played by the rules"),
            _m("illegal.own-cheat", "{player} cannot catch his own cheat"),
            _m("illegal.own-cheat:you", "you cannot catch your own cheat"),
            # -- rules that cannot be played (RulesError: error.code, error.params) ---------
            _m("rules.unknown-preset", "unknown preset {given} (known: {known})"),
            _m("rules.unknown-setting", "unknown setting (known: {known})"),
            _m("rules.unknown-value", "unknown value {given} (known: {known})"),
            _m("rules.not-integer", "must be an integer, not {given}"),
            _m("rules.not-integer-or-none", "must be an integer or None, not {given}"),
            _m("rules.out-of-range", "must be {low}-{high}, not {given}"),
            _m("rules.too-small", "must be at least {low}, not {given}"),
            _m("rules.not-bool", "must be true or false, not {given}"),
            _m("rules.deck-size", "must be one of {known}, not {given}"),
            _m(
                "rules.no-weights",
                "the learned agent has no weights for {given} (it has them for the default "
                "rules with {known} players)",
            ),
            _m(
                "rules.deal-too-big",
                "{count} players x {hand} cards need {need} cards, but the deck has {total} (R2.1)",
            ),
            _m(
                "rules.deal-too-big-decks",
                "{count} players x {hand} cards need {need} cards, but {decks} decks of {size} "
                "has {total} (R2.1)",
            ),
            _m(
                "rules.listing-too-large",
                "{settings} let one position list up to {count} legal actions, more than the "
                "{limit} any rules may (R13.1)",
            ),
            _m(
                "rules.preset-teams",
                "the preset {preset} is for {n} players in fixed teams, not {given} "
                "(team presets: {teams})",
            ),
            _m("rules.team-preset", "{preset} for {n}"),
            _mp(
                "rules.bots-players",
                "{n} bot ({given}) makes {count} players, but --players is {asked}: give one "
                "kind for every seat, or one kind for all",
                "{n} bots ({given}) make {count} players, but --players is {asked}: give one "
                "kind for every seat, or one kind for all",
            ),
            # -- errors (DurakError.message, error.code): whole sentences, then the reasons of
            # -- cards (InvalidCardError), seats, positions and other input -----------------
            _m("error.rules", "{setting}: {reason}"),
            _m("error.illegal-action", "{player} cannot {action}: {reason} ({rule})"),
            _m("error.illegal-action:you", "you cannot {action}: {reason} ({rule})"),
            _m("error.at", "{where}: {reason}"),
            # A record that cannot be replayed (durak.records.ReplayError): the action at
            # ``index`` (its ``notation``) is refused for ``reason``, or the result differs.
            _m("error.replay", "replay: action {index} ({notation}): {reason} ({rule})"),
            _m(
                "error.replay-result",
                "replay: result: the recorded result differs from the replayed one",
            ),
            _m("card.suit-not-text", "not a suit: {given} (expected text such as 'h')"),
            _m("card.not-a-suit", "not a suit: {given} (expected one of c d h s or ♣ ♦ ♥ ♠)"),
            _m("card.rank-not-text", "not a rank: {given} (expected text such as 'T')"),
            _m("card.not-a-rank", "not a rank: {given} (expected 2-9, T or 10, J, Q, K, A)"),
            _m(
                "card.not-a-value",
                "not a card value: {given} (use Card.of(rank, suit) or Card.parse('7h'))",
            ),
            _m("card.no-such-card", "no such card: {given}"),
            _m("card.not-text", "not a card: {given} (expected text such as 'Td')"),
            _m(
                "card.copy-apart",
                "not a card: {given} (write a copy right after its card, e.g. 'Td#2')",
            ),
            _m(
                "card.several",
                "not a card: {given} (one card, e.g. 'Td'; use parse_cards for several)",
            ),
            _m("card.control-character", "not a card: {given} (a control character {detail})"),
            _m("card.too-short", "not a card: {given} (expected rank then suit, e.g. 'Td')"),
            _m("card.bad-part", "not a card: {given} ({reason})"),
            _m("card.no-rank", "{card} is a card outside the 52: it has no rank"),
            _m("card.no-suit", "{card} is a card outside the 52: it has no suit"),
            _m(
                "card.first-copy",
                "not a card: {given} (the first copy is written without '#': '{text}')",
            ),
            _m(
                "card.copy-zeros",
                "not a card: {given} (write the copy without leading zeros: '{text}')",
            ),
            _m(
                "card.copy-suffix",
                "not a card: {given} (after '#' comes the copy 2-{high} in ASCII digits, "
                "e.g. '{text}'; the first copy has no '#')",
            ),
            _m("card.no-deck", "no deck of {given} cards (known sizes: {known})"),
            _m("card.decks", "decks must be {low}-{high}, not {given}"),
            _m("card.not-cards", "not cards: {given} (expected text such as '6h 7h' or a list)"),
            _m("input.no-cards", "an action needs at least one card"),
            _m("input.not-a-seat", "a player is a seat number 0, 1, 2 ..., not {given}"),
            _m(
                "input.seat-too-big",
                "a player is a seat number 0, 1, 2 ... (below 2**31), not {given}",
            ),
            _m("input.unknown-language", "no catalog for the language {given} (known: {known})"),
            _m("input.weights", "not a weights file this library reads: {field}: {detail}"),
            _m("input.unknown-level", "unknown level {given} (known: {known})"),
            _m("input.unknown-bot", "unknown bot {given} (known: {known})"),
            # A file or text the readers cannot take: ``detail`` is the system's or the
            # parser's own words (English), ``line`` the line of a TOML text (from 1).
            _m("input.cannot-read", "cannot read {given}: {detail}"),
            _m("input.not-json", "not valid JSON: {detail}"),
            _m("input.not-toml", "not valid TOML: {detail}"),
            _m("input.not-toml-line", "not valid TOML: {detail} (at line {line})"),
            _m(
                "input.unknown-bot-near",
                "unknown bot {given}; did you mean {near}? (known: {known})",
            ),
            _m(
                "input.unknown-level-near",
                "unknown level {given}; did you mean {near}? (known: {known})",
            ),
            _m("seat.no-seat", "no seat {given} in a {count}-player game (seats 0-{high}, R2.2)"),
            _m("position.not-a-seat", "{field}: must be a seat 0-{high}, not {given}"),
            _m(
                "position.not-a-count",
                "{field}: must be a whole number from 0 (below 2**31), not {given}",
            ),
            _m("position.not-bool", "{field}: must be true or false, not {given}"),
            _m("position.card-twice", "{field}: {card} appears more than once"),
            _m(
                "position.card-not-in-deck",
                "{field}: {card} is not in the rules' deck ({decks} x {size} cards)",
            ),
            _mp(
                "position.cards-missing",
                "{field}: {n} card(s) missing: {cards}",
                "{field}: {n} card(s) missing: {cards}",
            ),
            _mp(
                "position.cards-missing-more",
                "{field}: {n} card(s) missing: {cards} ...",
                "{field}: {n} card(s) missing: {cards} ...",
            ),
            _m(
                "position.table-not-pairs",
                "table: expected pairs (attack, beating card or None), not {given}",
            ),
            _m(
                "position.table-not-pair",
                "table: {given} is not a pair (attack, beating card or None)",
            ),
            _m("position.table-not-cards", "table: {given} is not a pair of cards"),
            _m("position.not-seats", "{field}: expected seat numbers, not {given}"),
            # ``count`` stands without a noun, so that only ``n`` needs a plural form.
            _mp(
                "position.hands-count",
                "hands: {count} given, the game has {n} player",
                "hands: {count} given, the game has {n} players",
            ),
            _m("position.trump-card-not-card", "trump_card: not a card: {given}"),
            _m(
                "position.trump-card-not-face-up",
                "trump_card: {card} is not the face-up card under the stock (R2.4)",
            ),
            _m(
                "position.trump-contradicts",
                "trump: {trump} given, but the face-up card under the stock is {card} (R2.4)",
            ),
            _m("position.no-trump", "trump: the stock is empty, so the trump suit must be given"),
            _mp(
                "position.places-count",
                "places: one place (or None) per seat is needed, {n} seats",
                "places: one place (or None) per seat is needed, {n} seats",
            ),
            _m(
                "position.game-over-hands",
                "hands: fewer than two players hold cards, so the game is over",
            ),
            _m(
                "position.game-over-team",
                "hands: only one team holds cards, so the game is over (R10.3)",
            ),
            _m(
                "position.first-bout-bouts", "first_bout: the first bout has bouts = 0, not {given}"
            ),
            _mp(
                "position.known-count",
                "known: one set of known cards per seat is needed, {n} seats",
                "known: one set of known cards per seat is needed, {n} seats",
            ),
            _mp(
                "position.entries-count",
                "{field}: one entry per seat is needed, {n} seats",
                "{field}: one entry per seat is needed, {n} seats",
            ),
            _m("position.rules-type", "rules: not a Rules object: {given}"),
            _m("position.trump-not-suit", "trump: not a suit: {given}"),
            _m(
                "position.defences-over",
                "defences: {count} successful defences in {limit} finished bouts",
            ),
            _m(
                "position.place-range", "places: seat {seat} has place {given}, not 1-{high} (R7.2)"
            ),
            _m(
                "position.left-no-place",
                "left: seat {seat} left with a partner but has no place (R10.3)",
            ),
            _m(
                "position.known-stray",
                "known: {card} is known to be in seat {seat}'s hand, but is not",
            ),
            _m(
                "position.known-face-up",
                "known: everyone saw {card} go to seat {seat}, so it is known in his hand "
                "(R2.4, R5.2)",
            ),
            _m("position.trump-card-suit", "trump_card: {card} is not of the trump suit (R2.4)"),
            _m(
                "position.no-face-up",
                "trump_card: the stock's last card is the face-up trump card (R2.4)",
            ),
            _m("position.exchange", "exchange: {card} is not the deck's lowest trump in a hand"),
            _m("position.over-table", "table: the game is over, so no card is on the table (R7.3)"),
            _m("position.over-places", "places: a finished game's places are its result's (R7.2)"),
            _m("position.form", "{field}: must be a {kind}, not {given}"),
            _m("position.entry-form", "{field}: each entry must be a {kind}, not {given}"),
            _m("position.card-form", "{field}: each card must be a Card, not {given}"),
            _m("position.or-none", "{field}: must be a {kind} or None, not {given}"),
            _m(
                "position.place-order",
                "places: seat {seat} has place {count}, but {limit} seat(s) are placed before "
                "him, so his place is {expected} (R7.2)",
            ),
            _m(
                "position.left-partner",
                "left: seat {seat} holds no card or has no partner who went out with place "
                "{count} (R10.3)",
            ),
            _m(
                "position.placed-with-cards",
                "places: seat {seat} has a place but holds cards and has not left (R7.1)",
            ),
            _m(
                "position.places-over",
                "places: with these seats out the game is already over (R7.3, R10.3)",
            ),
            _m(
                "position.places-too-few",
                "places: fewer than two players (or teams) are still in play, so the game is "
                "over (R7.3, R10.3)",
            ),
            _m(
                "position.defender-own",
                "defender: seat {seat} cannot defend against seat {other} (R4.1, R10.2)",
            ),
            _m("position.no-beat", "table: {card} does not beat {attack} ({rule})"),
            _m(
                "position.bout-over",
                "table: every thrower is done and the defender has beaten everything or taken, "
                "so the bout is over: the engine would already have ended it (R4.10)",
            ),
            # -- reasons: the endgame solver (durak.endgame) -----------------------------------
            _mp(
                "position.endgame-stock",
                "not an endgame: the stock still holds {n} card, and the solver needs it "
                "empty so that every card is known",
                "not an endgame: the stock still holds {n} cards, and the solver needs it "
                "empty so that every card is known",
            ),
            _mp(
                "position.endgame-players",
                "not a two-player endgame: {n} player is in play, and the solver needs "
                "at most two",
                "not a two-player endgame: {n} players are in play, and the solver needs "
                "at most two",
            ),
            _m("position.endgame-teams", "the endgame solver does not cover team play (R10)"),
            _m(
                "position.endgame-house-rules",
                "the endgame solver does not cover house rules from plug-ins ({given})",
            ),
            _m(
                "position.endgame-redeal",
                "a misdeal redeal is still possible (R12.2): a new shuffle is chance, which the "
                "endgame solver does not cover",
            ),
            _m("position.attacker-out", "attacker: seat {seat} is not in play, so he cannot lead"),
            _m("position.defender-out", "defender: seat {seat} is not in play (R4.1)"),
            _m("position.attacker-empty", "attacker: seat {seat} holds no card, so he cannot lead"),
            _m(
                "position.defender-empty",
                "hands: the defender, seat {seat}, holds no card, so no attack is possible (R4.6)",
            ),
            _m("position.no-bout", "{field}: no bout is in play, so this must be empty"),
            _mp(
                "position.over-limit",
                "table: {n} attack cards exceed the bout's limit of {limit} (cap {cap}, "
                "defender_hand {hand}) (R4.6)",
                "table: {n} attack cards exceed the bout's limit of {limit} (cap {cap}, "
                "defender_hand {hand}) (R4.6)",
            ),
            _mp(
                "position.over-hand",
                "table: {n} unbeaten cards, but the defender holds {hand} (R4.6)",
                "table: {n} unbeaten cards, but the defender holds {hand} (R4.6)",
            ),
            _m(
                "position.taken-beaten",
                "taken: the defender takes only while a card is unbeaten (R4.8)",
            ),
            _m(
                "position.joined-form",
                "joined: the seats that put attack cards on the table, each once, the leader "
                "first (R5.1)",
            ),
            _m(
                "position.defender-clockwise",
                "defender: seat {seat} does not defend against seat {other}; the next active "
                "opponent clockwise is seat {expected} (R4.1, R10.2)",
            ),
            _m(
                "position.defender-next",
                "defender: seat {seat} does not defend against seat {other}; the next active "
                "opponent is seat {expected} (R4.1, R10.2)",
            ),
            _mp(
                "position.defender-hand",
                "defender_hand: H is {hand}, but the defender holds {count} cards and has "
                "beaten {n} (R4.6)",
                "defender_hand: H is {hand}, but the defender holds {count} cards and has "
                "beaten {n} (R4.6)",
            ),
            _mp(
                "position.joined-count",
                "joined: {count} seats put attack cards on a table of {n} (R5.1)",
                "joined: {count} seats put attack cards on a table of {n} (R5.1)",
            ),
            _m(
                "position.leader-defends",
                "leader: seat {seat} led, so without transfers he cannot defend (R4.1, R9.1)",
            ),
            _m("position.rank-alone", "table: {card} matches no other card's rank (R4.3)"),
            _m(
                "position.passed-not-thrower",
                "passed: seat {seat} is not a thrower of this bout (R4.4)",
            ),
            _m(
                "position.passed-illegal",
                "passed: seat {seat} could not have passed: {reason} ({rule})",
            ),
            _m("position.shown", "shown: {card} is not a trump of the attack rank shown (R9.5)"),
            _m(
                "rules.unknown-preset-near",
                "unknown preset {given}; did you mean {near}? (known: {known})",
            ),
            _m(
                "rules.unknown-setting-near",
                "unknown setting; did you mean {near}? (known: {known})",
            ),
            _m(
                "rules.unknown-value-near",
                "unknown value {given}; did you mean {near}? (known: {known})",
            ),
            _m("rules.preset-not-text", "a preset is named by text, not {given}"),
            _m("rules.not-a-table", "a rules file holds a table of settings, not {given}"),
            _m("rules.preset-not-name", "must be a preset name, not {given}"),
            _m("rules.setting-not-text", "a setting is named by text"),
            _m("rules.unknown-format", "unknown format {given} (known: 'toml', 'json')"),
            _m("rules.not-text-file", "{given} is not a UTF-8 text file"),
            _m("rules.unknown-house-rule", "unknown house rule {given} (known: {known})"),
            _m(
                "rules.unknown-house-rule-extension",
                "unknown house rule {given} (known: {known}; the R15 extension is switched on by "
                "its setting {setting})",
            ),
            _m("rules.no-house-rule", "unknown house rule {given} (known: none registered)"),
            _m(
                "rules.no-house-rule-extension",
                "unknown house rule {given} (known: none registered; the R15 extension is "
                "switched on by its setting {setting})",
            ),
            _m("rules.not-teams", "must be a list of teams (lists of seats), not {given}"),
            _m("rules.team-not-list", "each team must be a list of seats, not {given}"),
            _m("rules.seat-not-integer", "a seat is an integer, not {given}"),
            _m("rules.not-house-rules", "must be a list of rule module names, not {given}"),
            _m("rules.house-rule-not-text", "a house rule is named by a string, not {given}"),
            _m(
                "rules.house-rule-extension",
                "{given} is an R15 extension: switch it on with its setting {setting} instead",
            ),
            _m("rules.house-rule-twice", "a house rule is named twice"),
            _m("rules.not-suits", "must be a set of suits, not {given}"),
            _m("rules.suit-not-letter", "a suit is a letter such as 'c', not {given}"),
            _m(
                "rules.jokers-deck",
                "jokers join 52-card decks only, not deck_size = {size} (R15.1)",
            ),
            _m(
                "rules.jokers-copies",
                "{count} jokers x {decks} decks make more than {limit} copies of the joker "
                "(R1.2, R15.1)",
            ),
            _m(
                "rules.show-sends-back-alone",
                "needs transfer_by_showing_trump = true (R15.3 changes where a show sends the "
                "attack)",
            ),
            _m(
                "rules.over-cards",
                "must be at most the number of cards in play ({total}), not {given}",
            ),
            _m(
                "rules.over-hand-size",
                "must be at most hand_size ({hand}: no hand is dealt more cards), not {given}",
            ),
            _m(
                "rules.several-alone", "needs transfer_by_card = true (R9.4 adds cards to transfer)"
            ),
            _m("rules.teams-split", "must split the seats 0-{high} into teams, each seat once"),
            _m("rules.teams-small", "needs at least two teams of at least two players (R10.1)"),
            _m(
                "rules.teams-alternate",
                "seats must alternate between the {count} teams (R10.1): team {given} breaks it",
            ),
            # -- action descriptions ---------------------------------------------------------
            _mp("action.lead", "lead {cards}", "lead {cards}"),
            _m("action.throw", "throw in {card}"),
            _m("action.beat", "beat {attack} with {card}"),
            _m("action.take", "take"),
            _m("action.pass", "pass"),
            _mp("action.transfer", "transfer with {cards}", "transfer with {cards}"),
            _m("action.show", "show trump {card}"),
            _m("action.exchange", "exchange {card} for the face-up trump card"),
            _m("action.redeal", "demand a redeal"),
            _m("action.catch", "catch {card}"),
            # -- event descriptions ----------------------------------------------------------
            _mp(
                "event.led",
                "{player} led {cards} against {defender}",
                "{player} led {cards} against {defender}",
            ),
            _mp(
                "event.led:you",
                "you led {cards} against {defender}",
                "you led {cards} against {defender}",
            ),
            _mp(
                "event.led:defender-you",
                "{player} led {cards} against you",
                "{player} led {cards} against you",
            ),
            _m("event.thrown-in", "{player} threw in {card}"),
            _m("event.thrown-in:you", "you threw in {card}"),
            _m("event.beaten", "{player} beat {attack} with {card}"),
            _m("event.beaten:you", "you beat {attack} with {card}"),
            _mp(
                "event.transferred",
                "{player} transferred with {cards} to {to}",
                "{player} transferred with {cards} to {to}",
            ),
            _mp(
                "event.transferred:you",
                "you transferred with {cards} to {to}",
                "you transferred with {cards} to {to}",
            ),
            _mp(
                "event.transferred:to-you",
                "{player} transferred with {cards} to you",
                "{player} transferred with {cards} to you",
            ),
            _m("event.shown", "{player} showed the trump {card}: the attack passes to {to}"),
            _m("event.shown:you", "you showed the trump {card}: the attack passes to {to}"),
            _m("event.shown:to-you", "{player} showed the trump {card}: the attack passes to you"),
            _m("event.take", "{player} will take"),
            _m("event.take:you", "you will take"),
            _m("event.passed", "{player} passed (done)"),
            _m("event.passed:you", "you passed (done)"),
            _m("event.exchanged", "{player} exchanged {card} for the face-up {face_up}"),
            _m("event.exchanged:you", "you exchanged {card} for the face-up {face_up}"),
            _m("event.redealt", "{player} called a misdeal: the cards were dealt again"),
            _m("event.redealt:you", "you called a misdeal: the cards were dealt again"),
            _m("event.acted", "{player} chose to {action}"),
            _m("event.acted:you", "you chose to {action}"),
            _mp("event.picked-up", "{player} picked up {n} card", "{player} picked up {n} cards"),
            _mp("event.picked-up:you", "you picked up {n} card", "you picked up {n} cards"),
            _mp(
                "event.discarded",
                "beaten off: {n} card to the discard pile",
                "beaten off: {n} cards to the discard pile",
            ),
            _mp("event.drew", "{player} drew {n} card", "{player} drew {n} cards"),
            _mp("event.drew:you", "you drew {n} card", "you drew {n} cards"),
            _mp(
                "event.drew-cards",
                "{player} drew {n} card: {cards}",
                "{player} drew {n} cards: {cards}",
            ),
            _mp(
                "event.drew-cards:you", "you drew {n} card: {cards}", "you drew {n} cards: {cards}"
            ),
            _mp(
                "event.drew-face-up",
                "{player} drew {n} card, the face-up {face_up}",
                "{player} drew {n} cards, one of them the face-up {face_up}",
            ),
            _mp(
                "event.drew-face-up:you",
                "you drew {n} card, the face-up {face_up}",
                "you drew {n} cards, one of them the face-up {face_up}",
            ),
            _m("event.out", "{player} is out ({place} place)"),
            _m("event.out:you", "you are out ({place} place)"),
            _m("event.left", "{player} leaves with {partner} ({place} place)"),
            _m("event.left:you", "you leave with {partner} ({place} place)"),
            _m("event.left:partner-you", "{player} leaves with you ({place} place)"),
            _m("event.new-bout", "new bout: {player} attacks {defender}"),
            _m("event.new-bout:you", "new bout: you attack {defender}"),
            _m("event.new-bout:defender-you", "new bout: {player} attacks you"),
            _m("event.durak", "game over: {player} is the durak"),
            _m("event.durak:you", "game over: you are the durak"),
            _m("event.draw", "game over: a draw, nobody is the durak"),
            _m("event.losers", "game over: lost {players}"),
            # -- the web server (durak serve): requests and messages it refuses -------------
            _mp(
                "server.body-too-big",
                "the body is too big (at most {n} byte)",
                "the body is too big (at most {n} bytes)",
            ),
            _m("server.settings-not-json", "send the table's settings as JSON ({detail})"),
            _m("server.settings-not-object", "send the table's settings as an object"),
            _m("server.record-not-json", "send a game record as JSON ({detail})"),
            _m("server.no-table", "there is no such table"),
            _m("server.bad-game-number", "game must be a game's number"),
            _m("server.no-record", "no finished game with that number at that table"),
            _m("server.record-unfinished", "the record is of an unfinished game"),
            _mp(
                "server.record-too-long",
                "the record has more than {n} action",
                "the record has more than {n} actions",
            ),
            _m("server.not-a-record", "not a game record: {detail}"),
            _m("server.unknown-key", "unknown key {given} (known: {known})"),
            _m(
                "server.rules-not-object",
                "'rules' must be an object of settings (as in a rules file)",
            ),
            _m("server.preset-not-name", "the preset must be a name"),
            _m("server.unknown-preset", "preset: unknown preset {given} (known: {known})"),
            _m("server.no-seats", "give one seat kind per player"),
            _m("server.unknown-seat-kind", "unknown seat kind {given} (known: {known})"),
            _m("server.no-person", "at least one seat must be a person"),
            _m(
                "server.no-fixed-seeds",
                "this server chooses every deal: a fixed seed is only taken by a server started "
                "with --allow-fixed-seeds",
            ),
            _m("server.seed-type", "the seed must be a number or text"),
            _mp(
                "server.seed-number",
                "the seed must be a number from 0 with at most {n} digit",
                "the seed must be a number from 0 with at most {n} digits",
            ),
            _mp(
                "server.seed-text",
                "the seed must be text of 1 to {n} character",
                "the seed must be text of 1 to {n} characters",
            ),
            _m("server.timer-type", "the timer is a number of seconds (0: no timer)"),
            _mp(
                "server.timer-range",
                "the timer must be from 0 to {n} second",
                "the timer must be from 0 to {n} seconds",
            ),
            _m("server.preset-in-rules", "rules: give the preset as 'preset', not among the rules"),
            _mp(
                "server.players-mismatch",
                "rules: players is {given} but {n} seat was given",
                "rules: players is {given} but {n} seats were given",
            ),
            _m("server.bad-rules", "rules: {detail}"),
            _m(
                "server.listing-too-large",
                "rules: {settings} let one position list up to {count} legal actions, more than "
                "the {limit} this server takes (R13.1)",
            ),
            _mp(
                "server.cannot-deal",
                "{preset} cannot be played by {n} player: {detail}",
                "{preset} cannot be played by {n} players: {detail}",
            ),
            _m(
                "server.too-many-tables",
                "too many tables from your address ({count}; at most {limit}): finish or leave "
                "one first",
            ),
            _mp(
                "server.tables-reserved",
                "the server is nearly full: its last {n} place is kept for visitors without a "
                "table, and you have {count}: finish or leave it first",
                "the server is nearly full: its last {n} places are kept for visitors without a "
                "table, and you have {count}: finish or leave one first",
            ),
            _mp(
                "server.server-full",
                "the server is full ({n} table in play): try again later",
                "the server is full ({n} tables in play): try again later",
            ),
            _m("server.origin-refused", "this page's origin may not play here"),
            _mp(
                "server.table-crowded",
                "this table has {n} connection, the most it takes: try again later",
                "this table has {n} connections, the most it takes: try again later",
            ),
            _m(
                "server.client-crowded",
                "too many connections from your address ({count}; at most {limit})",
            ),
            _mp(
                "server.message-too-long",
                "message too long (more than {n} character)",
                "message too long (more than {n} characters)",
            ),
            _m("server.not-understood", "not understood: {detail}"),
            _m("server.unknown-type", "not understood: unknown message type {given}"),
            _m("server.no-seat-to-leave", "you are watching: there is no seat to leave"),
            _m("server.onlooker-acts", "you are watching this table: onlookers cannot act"),
            _m("server.game-over", "the game is over"),
            _m("server.not-started", "the game starts when every seat is taken: share the link"),
            _m(
                "server.not-your-seat",
                "you sit at seat {seat} (P{seat}): you cannot act for P{other} ({notation})",
            ),
            _m("server.illegal-action", "illegal action {notation}: {reason} ({rule})"),
            _m("server.not-allowed-now", "illegal action {notation}: not allowed now"),
            _m("server.onlooker-restart", "onlookers cannot start a game"),
            _m("server.game-running", "the game is still being played"),
            # -- the engine service (POST /api/engine) -------------------------------------
            _m("server.engine-not-object", "the request is a JSON object, not {given}"),
            _m("server.engine-unknown-field", "{given}: unknown field (known: {known})"),
            _mp(
                "server.engine-too-big",
                "the request is too big (at most {n} byte)",
                "the request is too big (at most {n} bytes)",
            ),
            _m("server.engine-not-json", "the request is not the JSON asked for ({detail})"),
            _m("server.engine-rules-type", "rules: the rules are a JSON object, not {given}"),
            _m(
                "server.engine-no-state", "send a 'state', or a 'seed' (and 'rules') for a new deal"
            ),
            _m("server.engine-seed-type", "seed: a seed is an integer or text, not {given}"),
            _m("server.engine-bad-seed", "seed: {detail}"),
            _m("server.engine-both", "{given}: give either a state or a new deal, not both"),
            _m("server.engine-state-type", "state: a state is a JSON object, not {given}"),
            _m("server.engine-rules-differ", "rules: differ from the rules inside the state"),
            _m("server.engine-bad-state", "state{where}: {detail}"),
            _m("server.engine-bad-action", "action: {detail}"),
            _m("server.engine-illegal", "{notation}: {reason} ({rule})"),
            _m("server.engine-bad-player", "player: a seat from 0 to {limit} or null, not {given}"),
            # -- what a player types, read in its position (durak.moves) -------------------
            # ``readings``: a tuple of actions' descriptions, said as a list.
            _m("move.ambiguous", "{given} can mean several moves: {readings}; say which"),
            _m("move.empty", "nothing typed: type a card such as 7h, two cards, take or pass"),
            _m("move.unknown", "not a card or a move: {given}"),
            _m("move.needs-cards", "{given}: say which card(s)"),
            _m("move.one-card", "{given}: name one card"),
            _m("move.other-seat", "{given} is another seat's move: you play seat {seat}"),
            _m("move.onlooker", "you are watching: an onlooker has no moves"),
            _m("move.game-over", "the game is over: there are no more moves"),
            _m("move.not-now", "{given} is not one of your moves now"),
            _mp(
                "move.too-long",
                "a move is at most {n} character long",
                "a move is at most {n} characters long",
            ),
            # -- a rules file's mistake with its line (durak.presets.loads_rules) ----------
            _m("rules.at-line", "{reason} (line {line})"),
            # -- a game with its history (durak.game) ---------------------------------------
            _m("game.nothing-to-undo", "there is no move to undo"),
            _m("game.running", "the game is still running: there is no result yet"),
            _m("game.finished", "the game is over: nobody is to act"),
        )
    )
)

#: The codes of the first releases, when the reasons of an illegal action had no family
#: (``not-in-hand``), and the code each is now (``illegal.not-in-hand``): :func:`message`,
#: :func:`english` and :meth:`durak.i18n.Language.template` still accept them.
ALIASES: Mapping[str, str] = MappingProxyType(
    {code.removeprefix("illegal."): code for code in TEMPLATES if code.startswith("illegal.")}
)


def canonical(code: str) -> str:
    """``code`` as the library names it now: an old bare code of :data:`ALIASES`
    (``not-in-hand``) becomes its ``illegal.`` code; any other code is returned as it is."""
    return ALIASES.get(code, code)


class Message(str):
    """A sentence as data: the English text (the string itself), its :attr:`code` and the
    :attr:`params` it was made from. Equal to, and hashed as, its English text.

    Build one with :func:`message`. Pickles as its code and parameters.

    Attributes:
        code: a key of :data:`TEMPLATES`, or ``"other"`` for text given as it is.
        params: the values the template's ``{name}`` fields are filled with (read-only).
    """

    code: str
    params: Mapping[str, Any]

    def __reduce__(self) -> tuple[Any, ...]:
        return _rebuild, (self.code, dict(self.params))


def _rebuild(code: str, params: dict[str, Any]) -> Message:
    return message(code, **params)


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def _english_value(name: str, value: Any) -> str:
    """A parameter in the library's own English: seats as ``player 2``, cards in their text
    form (``Th``), suits by name."""
    from durak._input import brief

    if name in PLAYER_PARAMS and is_number(value):
        return f"player {brief(value)}"
    if name == "players" and isinstance(value, tuple) and all(map(is_number, value)):
        return ", ".join(f"player {brief(p)}" for p in value)
    if name == "place" and is_number(value) and -(10**6) < value < 10**6:
        return _ordinal(value)
    text = _card_text(value)
    if text is not None:
        return text
    if isinstance(value, tuple) and value and all(isinstance(v, Message) for v in value):
        return ", ".join(value)
    if isinstance(value, tuple):
        texts = [_card_text(v) for v in value]
        if None not in texts:
            return " ".join(cast("list[str]", texts))
    return value if isinstance(value, str) else brief(value)


def _card_text(value: object) -> str | None:
    """The English of a card, rank or suit of :mod:`durak.cards`, which say it themselves
    (``message_text``: messages sit below the cards and import nothing of them), else ``None``."""
    say = getattr(type(value), "message_text", None)
    return say(value) if callable(say) else None


def is_number(value: object) -> bool:
    """Whether ``value`` is a whole number (an ``int``, not a ``bool``) that a message may show
    as a seat, count or place; another value is quoted by :func:`durak._input.brief`."""
    return isinstance(value, int) and not isinstance(value, bool)


def english(code: str, params: Mapping[str, Any]) -> str:
    """The English text of ``code`` with ``params``, as the library writes it.

    Raises:
        KeyError: ``code`` is not a code of :data:`TEMPLATES` (nor ``"other"``).
        KeyError: a parameter the template names is missing.
    """
    if code == "other":
        return str(params.get("text", ""))
    singular, plural = TEMPLATES[canonical(code)]
    template = plural if plural is not None and params.get("n") != 1 else singular
    return template.format_map({k: _english_value(k, v) for k, v in params.items()})


def message(code: str, **params: Any) -> Message:
    """The message ``code`` with ``params``; its text is :func:`english`.

    Raises:
        KeyError: an unknown code, or a parameter the template needs is missing.
    """
    code = canonical(code)
    out = Message(english(code, params))
    out.code = code
    out.params = MappingProxyType(params)
    return out


def as_message(text: str) -> Message:
    """``text`` as a message: itself if it is one, its code and parameters if it is a reason
    of the library's readers (:class:`durak._input.Reason`), else the code ``other`` carrying it
    (a house rule's reason given as plain text)."""
    if isinstance(text, Message):
        return text
    if isinstance(text, Reason):
        return message(text.code, **text.params)
    return message("other", text=str(text))
