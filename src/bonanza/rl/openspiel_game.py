"""Klondike under Bonanza's rules as an OpenSpiel game: ``bonanza_klondike``.

Importing this module registers the game with ``pyspiel``::

    import pyspiel
    import bonanza.rl.openspiel_game  # noqa: F401
    game = pyspiel.load_game("bonanza_klondike", {"rules": "klondike-3"})

One player; player actions are the numbers of ``bonanza.rl.actions``. Chance
nodes name each hidden card the moment the player first sees it (see
``bonanza.rl.openspiel_table``): outcome ``c`` is card ``c`` (0-51),
uniform over the cards not yet seen, or the one card of a fixed ``deal``.
An action on a finished game, a chance outcome not offered or an illegal
move raises ``SpielActionError`` (an ``ActionError`` and a
``pyspiel.SpielError``) and leaves the state as it was.

Parameters: ``rules`` (a preset name, or ``Rules.to_text()`` with ``=`` or
``:`` between field and value), ``max_moves``
(player moves before the game stops), ``reward`` (``win``: 1 for a win, else
0; ``cards``: cards home / 52, at the end), ``deal`` (-1 for a random deal, or
a deal number: OpenSpiel's integers stop at 2**31 - 1).
"""

from __future__ import annotations

import dataclasses
from typing import Any, Final

try:
    import pyspiel
except ImportError as error:  # pragma: no cover - depends on the install
    raise ImportError(
        "the OpenSpiel game needs open_spiel: pip install -e '.[openspiel]' in a checkout, "
        "or pip install 'bonanza-….whl[openspiel]' from a wheel"
    ) from error

from bonanza.core.cards import CARDS
from bonanza.core.deal import Deal
from bonanza.core.errors import RulesError
from bonanza.core.notation import format_move
from bonanza.core.rules import PRESETS, Rules
from bonanza.rl.actions import ACTION_COUNT, ActionError
from bonanza.rl.openspiel_observer import HistoryObserver, PositionObserver
from bonanza.rl.openspiel_table import DECK, Table

GAME_NAME: Final = "bonanza_klondike"
DEFAULT_MAX_MOVES: Final = 1000
REWARDS: Final = ("win", "cards")
RULES_SEPARATOR: Final = ":"
"""Rules text may write ``draw:3`` for ``draw=3``: game strings cannot hold ``=``."""
RANDOM_DEAL: Final = -1
"""The ``deal`` parameter's value for a deal dealt by chance nodes."""
DEFAULT_PARAMS: Final[dict[str, Any]] = {
    "rules": "klondike",
    "max_moves": DEFAULT_MAX_MOVES,
    "reward": "win",
    "deal": RANDOM_DEAL,
}
GAME_TYPE: Final = pyspiel.GameType(
    short_name=GAME_NAME,
    long_name="Bonanza Klondike",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.GENERAL_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=1,
    min_num_players=1,
    provides_information_state_string=True,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=DEFAULT_PARAMS,
)


class SpielActionError(ActionError, pyspiel.SpielError):  # type: ignore[misc]
    """An action the state refuses: an ``ActionError`` (a ``ValueError``), and a
    ``pyspiel.SpielError`` as OpenSpiel's own games raise."""


@dataclasses.dataclass(frozen=True)
class Settings:
    """A game's parameters, read once."""

    rules: Rules
    max_moves: int
    reward: str
    deal: Deal | None

    @classmethod
    def read(cls, params: dict[str, Any]) -> Settings:
        merged = {**DEFAULT_PARAMS, **params}
        unknown = set(merged) - set(DEFAULT_PARAMS)
        if unknown:
            raise ValueError(f"{GAME_NAME}: unknown parameters {sorted(unknown)}")
        max_moves, reward = int(merged["max_moves"]), str(merged["reward"])
        if max_moves < 1:
            raise ValueError(f"{GAME_NAME}: max_moves must be at least 1, not {max_moves}")
        if reward not in REWARDS:
            raise ValueError(f"{GAME_NAME}: reward must be one of {REWARDS}, not {reward!r}")
        deal = int(merged["deal"])
        rules = Rules.from_text(str(merged["rules"]).replace(RULES_SEPARATOR, "="))
        if not rules.is_klondike:
            raise RulesError(
                f"{GAME_NAME} plays Klondike only, not {rules.game}: its chance outcomes and "
                "placeholders are one deck's (the Gymnasium environment plays the relatives)"
            )
        return cls(
            rules,
            max_moves,
            reward,
            None if deal == RANDOM_DEAL else Deal.from_number(deal),
        )

    def params(self) -> dict[str, Any]:
        """The parameters in their canonical form: the rules as a preset name,
        or as ``to_text()`` with ``:`` for ``=`` (which OpenSpiel's game strings
        cannot hold)."""
        presets = [name for name, rules in PRESETS.items() if rules == self.rules]
        return {
            "rules": presets[0] if presets
            else self.rules.to_text().replace("=", RULES_SEPARATOR),
            "max_moves": self.max_moves,
            "reward": self.reward,
            "deal": RANDOM_DEAL if self.deal is None else self.deal.number,
        }

    def __deepcopy__(self, memo: object) -> Settings:
        return self  # frozen: states share it


class KlondikeGame(pyspiel.Game):  # type: ignore[misc]  # pyspiel has no type hints
    """The game: rules, move limit, reward and, if fixed, the deal."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        self.settings = Settings.read(dict(params or {}))
        info = pyspiel.GameInfo(
            num_distinct_actions=ACTION_COUNT,
            max_chance_outcomes=DECK,
            num_players=1,
            min_utility=0.0,
            max_utility=1.0,
            max_game_length=self.settings.max_moves,
        )
        super().__init__(GAME_TYPE, info, self.settings.params())

    def new_initial_state(self) -> KlondikeState:
        return KlondikeState(self)

    def max_chance_nodes_in_history(self) -> int:
        return DECK

    def make_py_observer(
        self, iig_obs_type: Any = None, params: Any = None
    ) -> PositionObserver | HistoryObserver:
        """The information state (``perfect_recall``) or the observation."""
        if params:
            raise ValueError(f"{GAME_NAME}: observers take no parameters, not {params}")
        if iig_obs_type is not None and not isinstance(iig_obs_type, dict) and (
            iig_obs_type.perfect_recall
        ):
            return HistoryObserver()
        return PositionObserver(self.settings.max_moves)


class KlondikeState(pyspiel.State):  # type: ignore[misc]  # pyspiel has no type hints
    """One game in progress: a ``Table`` and the game's settings."""

    def __init__(self, game: KlondikeGame) -> None:
        super().__init__(game)
        self.settings = game.settings
        self.table = Table.initial(self.settings.rules)

    def current_player(self) -> int:
        if self.table.pending:
            return int(pyspiel.PlayerId.CHANCE)
        if self.is_terminal():
            return int(pyspiel.PlayerId.TERMINAL)
        return 0

    def _legal_actions(self, player: int) -> list[int]:
        return list(self.table.legal())

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """Each unseen card, equally likely; or the fixed deal's card."""
        if self.settings.deal is not None:
            return [(self.settings.deal.cards[self.table.pending[0]], 1.0)]
        unseen = self.table.unseen()
        return [(card, 1.0 / len(unseen)) for card in unseen]

    def _apply_action(self, action: int) -> None:
        """Name the waiting card or play the move; a ``SpielActionError`` refuses
        an action on a finished game, a card that is no chance outcome here and
        an illegal move, and leaves the state as it was."""
        try:
            if self.is_terminal():
                raise ActionError(f"the game is over: action {action} is refused")
            fixed = self.settings.deal
            if self.table.pending and fixed is not None and (
                action != fixed.cards[self.table.pending[0]]
            ):
                raise ActionError(
                    f"card {action} is not this deal's card here: a fixed deal's chance "
                    "node has one outcome (chance_outcomes())"
                )
            if self.table.pending:
                self.table.reveal(action)
            else:
                self.table.play(action)
        except ActionError as error:
            raise SpielActionError(str(error)) from None

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"reveal {CARDS[action]}"
        move = self.table.legal().get(action)
        return f"action {action}" if move is None else format_move(move)

    def is_terminal(self) -> bool:
        return self.table.is_over(self.settings.max_moves)

    def returns(self) -> list[float]:
        if not self.is_terminal():
            return [0.0]
        foundations = self.table.position.foundations
        if self.settings.reward == "cards":
            return [sum(foundations) / DECK]
        return [1.0 if self.table.position.is_won() else 0.0]

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> Any:
        """A state the player cannot tell from this one: a copy, since no
        card the player has not seen exists yet (IS-MCTS calls this)."""
        return self.clone()

    def deal(self) -> Deal:
        """The deal played: the cards seen in their places, and the unseen ones
        in card order (or the fixed deal's)."""
        fixed = self.settings.deal
        return self.table.deal(fixed.cards if fixed is not None else None)

    def __str__(self) -> str:
        return f"{self.table.text()} moves {self.table.moves}"


pyspiel.register_game(GAME_TYPE, KlondikeGame)
