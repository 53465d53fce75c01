"""The companion's game service: games live as logs in the store and as replayed states in memory.

Every change goes the same way: check (the engine), store durably, then update memory and notify live
listeners. A refused action changes nothing anywhere. One lock per game serialises actions, so a
double-tapped button is accepted once.
"""

from __future__ import annotations

import contextlib
import json
import secrets
import threading
import time
import unicodedata
import uuid
from collections.abc import Callable, Iterator
from typing import Any, Protocol

from companion.gamelog import FORMAT, LogError, action_from_json, action_to_json, parse_log
from companion.rules import (
    EDITIONS,
    GREY_DIE,
    GameState,
    RuleError,
    apply,
    new_game,
)
from companion.sim.dice import roll_setup
from companion.table.correction import Amendment, amendments_explaining
from companion.table.live import ApiError, Caller, LiveGame
from companion.table.store import KEEP, Entry, GameRow, StorageError, Store, effective_actions
from companion.table.views import export_log, public_state_json, viewer_json

NAME_LENGTH = 32
"""Longest player or character name, in characters."""
BIDI_CONTROLS = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
"""Characters that reorder the text around them: a name holding one can turn "3 → 4" into "4 → 3"."""
ACTION_DEADLINE_SECONDS = 8.0
"""An action that waited this long for its turn is refused, never applied after the phone gave up on it."""

TAKE_BACK_SECONDS = 15.0
"""How long a player may take back their own last tap (the phone offers it for a little less)."""


def refuse_pyramid_change(row: GameRow) -> None:
    """A game whose dice come from the electronic pyramid: what it drew is a fact, a board that differs is a
    hand's slip (and a changed draw would leave the game's pyramid unlike the real one).

    Raises:
        ApiError: 409 for such a game.
    """
    if row.dice == "pyramid":
        raise ApiError(409, "the electronic pyramid drew this game's dice: its draws are not changed from the "
                       "camera; put the camels back where the game shows them", "PyramidDraw")


class DiceSource(Protocol):
    """Where the dice of ``dice: "pyramid"`` games come from: the electronic pyramid, real or simulated."""

    name: str

    def roll(self, state: GameState) -> tuple[str, int, str | None]:
        """Draw one of ``state.dice_in_pyramid()``: ``(die, value, crazy colour or None)``."""
        ...

    def setup(self, edition: str) -> dict[int, tuple[str, ...]]: ...


class SimulatedPyramid:
    """The pyramid without hardware: a fair draw among the dice still inside, from the OS's randomness."""

    name = "simulated"

    def __init__(self, rng: Any = None) -> None:
        self._rng = rng or secrets.SystemRandom()

    def roll(self, state: GameState) -> tuple[str, int, str | None]:
        die = self._rng.choice(state.dice_in_pyramid())
        value = self._rng.choice(state.edition.die_faces)
        crazy = self._rng.choice(state.edition.crazy_camels) if die == GREY_DIE else None
        return die, value, crazy

    def setup(self, edition: str) -> dict[int, tuple[str, ...]]:
        return roll_setup(EDITIONS[edition], self._rng)


def _token() -> str:
    return secrets.token_urlsafe(24)  # pragma: no mutate (a longer token is as good)


def same_token(given: str, expected: str) -> bool:
    """Constant-time comparison of any text a caller sent (any characters, even lone surrogates)."""
    return secrets.compare_digest(given.encode("utf-8", "surrogatepass"), expected.encode("utf-8", "surrogatepass"))


def check_name(name: object, what: str) -> str:
    """A player's or character's name as it will be shown, or a 400 naming the limit it breaks."""
    if not isinstance(name, str):
        raise ApiError(400, f"{what} must be text")
    name = name.strip()
    if not name:
        raise ApiError(400, f"{what} must not be empty")
    if len(name) > NAME_LENGTH:
        raise ApiError(400, f"{what} {name[:NAME_LENGTH]!r}… is longer than {NAME_LENGTH} characters")
    for character in name:
        if character in BIDI_CONTROLS:
            raise ApiError(400, f"{what} {name!r} holds a text-direction control character (U+{ord(character):04X}),"
                           " which would reorder the text around it")
        if unicodedata.category(character) in ("Cc", "Cs", "Zl", "Zp"):
            raise ApiError(400, f"{what} {name!r} holds a control character (U+{ord(character):04X})")
    if name in (".", ".."):
        raise ApiError(400, f"{what} cannot be {name!r}")
    return name


class GameService:
    def __init__(
        self,
        store: Store,
        pyramid: DiceSource | None = None,
        base_url: Callable[[], str] = lambda: "http://localhost:8000",
    ) -> None:
        """``pyramid`` draws for ``dice: "pyramid"`` games; ``None`` means there is no electronic pyramid."""
        self.store = store
        self.pyramid = pyramid
        self.base_url = base_url
        self._games: dict[str, LiveGame] = {}
        self._lock = threading.Lock()
        self._last_active: str | None = None  # pragma: no mutate (no game's id is "")
        for row in store.games():
            self._games[row.id] = self._replay(row, store.entries(row.id))
        on_button = getattr(self.pyramid, "on_button", None)
        if on_button is not None:
            on_button(lambda draw: self.button_draw(draw.die, draw.value, draw.crazy))
        self._pyramid_start()

    def _pyramid_start(self) -> None:
        """The electronic pyramid learns the latest pyramid game at start; its notices wake the pages."""
        on_status = getattr(self.pyramid, "on_status", None)
        if on_status is not None:
            on_status(self._pyramid_changed)
        sync = getattr(self.pyramid, "sync", None)
        live = [g for g in self._games.values() if g.row.dice == "pyramid" and not g.state.game_over]
        if sync is not None and live:
            latest = max(live, key=lambda g: g.entries[-1].at if g.entries else g.row.created)
            self._last_active = latest.row.id
            sync(latest.state)

    def _pyramid_changed(self) -> None:
        for game in list(self._games.values()):
            if game.row.dice == "pyramid":
                for wake in list(game.listeners):
                    wake()

    # -- loading ----------------------------------------------------------------------------------------
    def _replay(self, row: GameRow, entries: list[Entry]) -> LiveGame:
        return LiveGame(row, entries, _state_after(row, effective_actions(entries)), version=len(entries))

    def game(self, game_id: str) -> LiveGame:
        game = self._games.get(game_id)
        if game is None:
            raise ApiError(404, f"there is no game {game_id!r}")
        return game

    # -- creating ---------------------------------------------------------------------------------------
    def create(self, payload: object) -> dict[str, Any]:
        """Create a game from the API's body; returns the 201 body (tokens and join addresses)."""
        if not isinstance(payload, dict):
            raise ApiError(400, "the body must be a JSON object")
        edition = payload.get("edition")
        if edition not in EDITIONS:
            raise ApiError(400, f"'edition' must be \"2014\" or \"2018\", not {edition!r}")
        players = payload.get("players")
        if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
            raise ApiError(400, "'players' must be a list of names in seating order")
        players = [check_name(p, "a player's name") for p in players]
        dice = payload.get("dice", "manual")
        if dice not in ("pyramid", "manual"):
            raise ApiError(400, f"'dice' must be \"pyramid\" or \"manual\", not {dice!r}")
        if dice == "pyramid" and self.pyramid is None:
            raise ApiError(400, "no electronic pyramid is configured here: use \"dice\": \"manual\"")
        characters = payload.get("characters", {})
        if isinstance(characters, list) and len(characters) == len(players):
            characters = dict(zip(players, characters, strict=True))  # pragma: no mutate (lengths checked)
        if not isinstance(characters, dict) or not all(
            isinstance(k, str) and isinstance(v, str) for k, v in characters.items()
        ):
            raise ApiError(400, "'characters' must map each player to a character's name")
        characters = {player: check_name(name, "a character's name")
                      for player, name in characters.items() if name.strip()}
        strangers = sorted(set(characters) - set(players))
        if strangers:
            raise ApiError(400, f"'characters' names no such player: {', '.join(strangers)}")
        if len(set(characters.values())) != len(characters):
            raise ApiError(400, "two players cannot play the same character")
        if "setup" in payload:
            setup = payload["setup"]
        else:
            roller = self.pyramid if dice == "pyramid" and self.pyramid is not None else SimulatedPyramid()
            setup = {"track": {str(k): list(v) for k, v in roller.setup(edition).items()}}
        log = {"format": FORMAT, "edition": edition, "players": players, "setup": setup, "actions": []}
        try:
            parsed = parse_log(log)
        except LogError as error:
            raise ApiError(400, error.message) from None
        row = GameRow(
            id=uuid.uuid4().hex[:10],
            created=self.store.now(),
            edition=edition,
            players=list(parsed.players),
            setup=parsed.to_json()["setup"],
            dice=dice,
            host_token=_token(),
            table_token=_token(),
            seat_tokens={player: _token() for player in parsed.players},
            result=None,
            characters=characters,
        )
        self.store.create_game(row)
        with self._lock:
            self._games[row.id] = LiveGame(row, [], parsed.start())
        sync = getattr(self.pyramid, "sync", None)
        if dice == "pyramid" and sync is not None:
            self._last_active = row.id
            sync(parsed.start())  # a new game starts from a full pyramid
        return self.credentials(row.id)

    def credentials(self, game_id: str) -> dict[str, Any]:
        row = self.game(game_id).row
        base = self.base_url()
        return {
            "game_id": row.id,
            "host_token": row.host_token,
            "table_token": row.table_token,
            "table_url": f"{base}/table/{row.id}#{row.table_token}",
            "host_url": f"{base}/host/{row.id}#{row.host_token}",
            "seats": [
                {"player": player, "token": token, "join_url": f"{base}/join/{token}"}
                for player, token in row.seat_tokens.items()
            ],
        }

    def import_log(self, log: object, dice: str = "manual") -> dict[str, Any]:
        """A new game from an exported game log (its actions are replayed and stored)."""
        try:
            parsed = parse_log(log)
            parsed.replay()
        except LogError as error:
            raise ApiError(400, f"action {error.action}: {error.message}" if error.action else error.message) from None
        credentials = self.create({"edition": parsed.edition, "players": list(parsed.players), "dice": dice,
                                   "setup": parsed.to_json()["setup"]})
        game = self.game(credentials["game_id"])
        for obj in parsed.actions:
            self._commit(game, "action", obj, "import")
        return credentials

    # -- who is calling ---------------------------------------------------------------------------------
    def authenticate(self, game_id: str, token: str | None) -> Caller:
        game = self.game(game_id)
        row = game.row
        if token and same_token(token, row.host_token):
            return Caller("host")
        if token and same_token(token, row.table_token):
            return Caller("table")
        for player, seat_token in row.seat_tokens.items():
            if token and same_token(token, seat_token):
                self._joined(game, player)
                return Caller("seat", player)
        raise ApiError(401, "no valid token for this game: join it from its link or QR code")

    def find_seat(self, token: str, join: bool = True) -> tuple[str, str] | None:
        """``(game id, player)`` for a seat token (the join link); ``join``: a phone is taking the seat."""
        for game in list(self._games.values()):
            for player, seat_token in game.row.seat_tokens.items():
                if same_token(token, seat_token):
                    if join:
                        self._joined(game, player)
                    return game.row.id, player
        return None

    def _joined(self, game: LiveGame, player: str) -> None:
        """The seat is held by a phone: from now on only that seat may enter its finish cards (so the host
        cannot learn a face-down card by trying to play it again)."""
        if player in game.row.joined:
            return
        with self._lock:
            if player in game.row.joined:
                return
            joined = (*game.row.joined, player)
            game.row = GameRow(**{**game.row.__dict__, "joined": joined})
            with contextlib.suppress(StorageError):  # kept in memory; the problem is already on every page
                self.store.set_joined(game.row.id, joined)

    # -- acting -----------------------------------------------------------------------------------------
    def act(self, game_id: str, caller: Caller, payload: object, received: float | None = None) -> GameState:
        """Check, store, then apply one action for ``caller``. ``received`` (``time.monotonic()``) is when the
        request arrived: one that waited more than ``ACTION_DEADLINE_SECONDS`` is refused, not applied late.

        Raises:
            ApiError: 400 not an action object, 403 acting for another seat, 409 the rules refuse it, 503 too late
                or the action cannot be stored.
        """
        game = self.game(game_id)
        if caller.role == "table":
            raise ApiError(403, "the table screen can only watch")
        if not isinstance(payload, dict):
            raise ApiError(400, "an action must be a JSON object")
        obj = dict(payload)
        if caller.role == "seat":
            named = obj.setdefault("player", caller.player)
            if named != caller.player:
                raise ApiError(403, f"this phone is {caller.player}'s seat: it cannot act for {named!r}")
        elif "player" not in obj:
            raise ApiError(400, "the host (scorekeeper) must say which player acts: 'player' is missing")
        elif obj.get("type") == "finish_bet" and obj["player"] in game.row.joined:
            # Whatever the card, the same answer: trying cards must not tell the host which ones were played.
            raise ApiError(403, f"{obj['player']} has joined from a phone: finish cards are played from that phone")
        with self._turn(game, received):
            if obj.get("type") == "pyramid" and "die" not in obj:
                if game.row.dice != "pyramid":
                    raise ApiError(400, "this game uses manual dice: send 'die' and 'value' (and 'crazy' for grey)")
                if game.state.game_over:
                    raise ApiError(409, "the race is over: no more actions can be taken", "RaceOverError")
                if obj.get("player") != game.state.current_player:
                    raise ApiError(409, f"it is {game.state.current_player}'s turn, not {obj.get('player')}'s",
                                   "NotYourTurnError")
                if self.pyramid is None:
                    raise ApiError(409, "no electronic pyramid is configured: enter the die by hand")
                die, value, crazy = self.pyramid.roll(game.state)
                obj.update({"die": die, "value": value})
                if crazy is not None:
                    obj["crazy"] = crazy
            try:
                action = action_from_json(obj)
            except RuleError as error:
                raise ApiError(400, str(error), error.code) from None
            try:
                after = apply(game.state, action)
            except RuleError as error:
                raise ApiError(409, str(error), error.code) from None
            self._commit(game, "action", action_to_json(action), caller.player or "host", after)
            return after

    @contextlib.contextmanager
    def _turn(self, game: LiveGame, received: float | None) -> Iterator[None]:
        """The game's lock, unless the request has waited past its deadline (then a 503: nothing is done)."""
        wait = -1.0 if received is None else received + ACTION_DEADLINE_SECONDS - time.monotonic()
        if received is not None and (wait <= 0 or not game.lock.acquire(timeout=wait)):
            raise ApiError(503, "the companion was too busy to take this in time: nothing was done, try again",
                           "TooBusy")
        if received is None:
            game.lock.acquire()
        try:
            yield
        finally:
            game.lock.release()

    def game_start(self, game_id: str) -> GameState:
        """The game as it stood before its first action (its setup)."""
        return _state_after(self.game(game_id).row, [])

    def undo(self, game_id: str, caller: Caller) -> GameState:
        """The host takes back the last action (recorded in the stored log as an undo). A player may take back
        their own last tap within ``TAKE_BACK_SECONDS``, if nobody has acted since."""
        if caller.role not in ("host", "seat"):
            raise ApiError(403, "only the host can undo")
        game = self.game(game_id)
        with game.lock:
            if not game.actions:
                raise ApiError(409, "there is no action to undo")
            if caller.role == "seat":
                last = game.entries[-1]
                if last.kind != "action" or last.by != caller.player:
                    raise ApiError(409, "only your own last action can be taken back, before anyone acts",
                                   "TakeBackNotYours")
                if last.body.get("type") == "pyramid":  # a die cannot be un-rolled (nor re-drawn for a better one)
                    raise ApiError(409, "a draw cannot be taken back: ask the host to undo", "TakeBackDraw")
                if self.store.now() - last.at > TAKE_BACK_SECONDS:
                    raise ApiError(409, "too late to take it back: ask the host to undo", "TakeBackTooLate")
            state = _state_after(game.row, game.actions[:-1])
            self._commit(game, "undo", {}, caller.player or "host", state)
            return state

    def correct_entry(self, game_id: str, caller: Caller, amendment: Amendment) -> GameState:
        """The host takes the camera's verdict as right: its ``amendment`` (one die entry entered differently)
        is applied (stored as a correction entry: what it was, what it becomes, and why), if that entry still
        stands as the verdict saw it.

        Raises:
            ApiError: 403 not the host; 409 the game's dice come from the electronic pyramid (its draws are facts),
                the entry changed meanwhile, the game refuses the amended draws, or another entry would give the
                same board.
        """
        if caller.role != "host":
            raise ApiError(403, "only the host can correct the game from the camera")
        game = self.game(game_id)
        refuse_pyramid_change(game.row)
        with game.lock:
            index = amendment.index
            if not 0 <= index < len(game.actions) or dict(game.actions[index]) != amendment.was:
                raise ApiError(409, "that entry has changed since the camera looked: look at the board again",
                               "NoCorrection")
            actions = [*game.actions]
            actions[index] = amendment.becomes
            try:
                state = _state_after(game.row, actions)
            except (RuleError, LogError) as error:
                raise ApiError(409, f"the game refuses that correction ({error})", "NoCorrection") from None
            # Another entry giving the same board (a camel stepping off a spectator tile) would pay someone else:
            # the board cannot tell which, so the players must say.
            seen = {space: list(stack) for space, stack in state.track.as_dict().items()}
            found = amendments_explaining(_state_after(game.row, []), game.actions, seen)
            if len(found) > 1:
                options = "; or ".join(other.describe() for other in found)
                raise ApiError(409, f"the camera's board fits more than one correction ({options}): "
                               "undo and enter the draws again", "AmbiguousCorrection")
            body = {"index": index, "action": amendment.becomes, "was": amendment.was, "source": "camera"}
            self._commit(game, "correct", body, "host", state)
            return state

    def _commit(self, game: LiveGame, kind: str, body: dict[str, Any], by: str,
                after: GameState | None = None) -> None:
        """Store first (durable), then update memory, then wake the listeners."""
        if after is None:
            after = apply(game.state, action_from_json(body))
        result: object = KEEP  # pragma: no mutate (None = no result: an action after the race end is refused)
        if after.game_over:
            result = {"money": after.money_by_player(), "winners": list(after.winners())}
        elif kind in ("undo", "correct"):
            result = None  # the race is on again: a stored result goes (the row in memory never holds it)
        entry = self.store.append(game.row.id, len(game.entries) + 1, kind, body, by, result)  # or StorageError
        game.record(entry, after)
        self._last_active = game.row.id
        sync = getattr(self.pyramid, "sync", None)
        if game.row.dice == "pyramid" and sync is not None:
            sync(after)  # the electronic pyramid holds the same dice as the game
        for wake in list(game.listeners):
            wake()

    def button_draw(self, die: str, value: int, crazy: str | None) -> GameState | None:
        """The pyramid's own button was pressed: the draw counts for whoever's turn it is in the pyramid
        game played most recently. A draw the rules refuse is dropped (and the pyramid re-synced)."""
        candidates = [g for g in self._games.values() if g.row.dice == "pyramid" and not g.state.game_over]
        if not candidates:
            return None
        game = next((g for g in candidates if g.row.id == self._last_active), None) or max(
            candidates, key=lambda g: g.entries[-1].at if g.entries else g.row.created
        )
        with game.lock:
            player = game.state.current_player
            obj: dict[str, Any] = {"player": player, "type": "pyramid", "die": die, "value": value}
            if crazy is not None:
                obj["crazy"] = crazy
            try:
                after = apply(game.state, action_from_json(obj))
            except RuleError:
                sync = getattr(self.pyramid, "sync", None)
                if sync is not None:
                    sync(game.state)
                return None
            self._commit(game, "action", obj, player or "pyramid", after)
            return after

    def reissue_seat(self, game_id: str, caller: Caller, player: str) -> dict[str, Any]:
        """A new link for ``player``'s seat; the old one stops working (a lost or borrowed phone)."""
        if caller.role != "host":
            raise ApiError(403, "only the host can re-issue a seat")
        game = self.game(game_id)
        if player not in game.row.seat_tokens:
            raise ApiError(404, f"there is no seat for {player!r}")
        with self._lock:  # the row is also replaced when a seat joins
            tokens = {**game.row.seat_tokens, player: _token()}
            self.store.set_seat_tokens(game_id, tokens)
            game.row = GameRow(**{**game.row.__dict__, "seat_tokens": tokens})
        for wake in list(game.listeners):
            wake()  # every live page checks its token again: the old link's pages close now
        return self.credentials(game_id)

    # -- reading ----------------------------------------------------------------------------------------
    def listen(self, game_id: str, wake: Callable[[], None]) -> None:
        """Call ``wake`` (from any thread, so it must be quick) after every change of the game and whenever
        its seats' links change; the listener then reads the state and checks its token again."""
        self.game(game_id).listeners.append(wake)

    def stop_listening(self, game_id: str, wake: Callable[[], None]) -> None:
        game = self._games.get(game_id)
        if game is not None and wake in game.listeners:
            game.listeners.remove(wake)

    def log(self, game_id: str, caller: Caller) -> dict[str, Any]:
        if caller.role != "host":
            raise ApiError(403, "only the host can export the game log")
        game = self.game(game_id)
        if not game.state.game_over:
            raise ApiError(409, "the log would reveal face-down finish cards: it is available once the race is over")
        return export_log(game)

    def past_games(self) -> list[dict[str, Any]]:
        out = []
        for game in sorted(self._games.values(), key=lambda g: g.row.created, reverse=True):
            state = game.state
            out.append({
                "game_id": game.row.id,
                "created": game.row.created,
                "edition": game.row.edition,
                "players": game.row.players,
                "game_over": state.game_over,
                "leg": state.leg,
                "money": state.money_by_player(),
                "winners": list(state.winners()),
            })
        return out

    def state_json(self, game_id: str, caller: Caller) -> dict[str, Any]:
        return json.loads(self.state_text(game_id, caller))

    def state_text(self, game_id: str, caller: Caller) -> str:
        """The caller's view as JSON text. The public part is serialised once per version and shared by
        every page; only each viewer's own part (their hand, what they may do) is added per viewer."""
        game = self.game(game_id)
        version, state = game.snapshot  # no lock: twenty pages must not queue behind the next action
        key = (version, caller.role, caller.player)
        text = game.views.get(key)
        if text is None:
            public = game.views.get((version, "public", None))  # pragma: no mutate (a cache key: a miss recomputes)
            if public is None:
                public = json.dumps(public_state_json(game, version, state))
            own = json.dumps(viewer_json(state, caller))
            text = f"{public[:-1]}, {own[1:]}"
            if version == game.version:
                game.views[(version, "public", None)] = public
                game.views[key] = text
        status = getattr(self.pyramid, "status", None)
        if game.row.dice == "pyramid" and status is not None:
            text = f'{text[:-1]}, "pyramid": {json.dumps(status())}}}'  # the rig's notice changes between versions
        return text


def _state_after(row: GameRow, actions: list[dict[str, Any]]) -> GameState:
    """The game from its setup, with ``actions`` (already accepted once) applied in order."""
    state = new_game(EDITIONS[row.edition], row.players, _setup_track(row.setup))
    for obj in actions:
        state = apply(state, action_from_json(obj))
    return state


def _setup_track(setup: dict[str, Any]) -> dict[int, tuple[str, ...]]:
    return {int(space): tuple(stack) for space, stack in setup["track"].items()}
