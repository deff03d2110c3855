"""The server's refusals (an `error`'s stable `code`) in the player's words and language.

The server's own `message` is English and written for developers; the codes a person
meets are explained here, and any other refusal shows the server's message (peer text,
made safe to show).
"""

from __future__ import annotations

from .i18n import _
from .lobby import HTTP_ERROR
from .safe import peer


def explain(code: str, message: str) -> str:
    """A refusal as a sentence in the chosen language."""
    reasons = {
        "unknown_game": _("There is no such game."),
        "game_full": _("There is no free seat at that table."),
        "game_started": _("That game has already started."),
        "bad_token": _("That token holds no seat in this game."),
        "too_many_games": _("This address already has as many open or running games as "
                            "the server allows."),
        "bad_seats": _("A table has 2 to 6 seats."),
        "unknown_kingdom_set": _("There is no recommended Kingdom of that name."),
        "bad_kingdom_size": _("A Kingdom is 10 different Kingdom cards."),
        "internal_error": _("The server failed; try again later."),
        "storage_unavailable": _("The server cannot store games just now; try again later."),
        "cluster_unavailable": _("The server cannot store games just now; try again later."),
        "stale_decision": _("Too late: that question was already answered."),
        "game_over": _("The game is over."),
        "already_resigned": _("You have resigned; a bot plays your seat."),
        "rate_limited": _("Too fast: wait a moment and try again."),
        "wrong_credentials": _("No account has this name and password."),
        "not_signed_in": _("Sign in first: dominion login."),
        "token_invalid": _("The access token is not valid (mistyped or revoked): "
                           "dominion login again."),
        "token_expired": _("The access token has expired: create another."),
        "scope_missing": _("The access token may not do that (its scopes); tokens are "
                           "managed after dominion login with the password."),
    }
    if code == HTTP_ERROR:  # no JSON error: the message is the client's own
        return message
    return reasons.get(code) or _("The server refused that: {message}").format(
        message=peer(message))


__all__ = ["explain"]
