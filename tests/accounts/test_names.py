"""Account names: one key for names that look alike, and a typed refusal for each rule."""

from __future__ import annotations

import pytest

from dominion.protocol import ErrorCode
from dominion.server.accounts.names import check_account_name, name_key
from dominion.server.refusal import Refusal


def refusal(name: object) -> ErrorCode:
    with pytest.raises(Refusal) as refused:
        check_account_name(name)
    return refused.value.code


def test_names_that_look_alike_share_a_key() -> None:
    key = check_account_name("Alice")[1]
    fullwidth = "\uff41\uff4c\uff49\uff43\uff45"  # NFKC makes it plain Latin
    assert name_key("ALICE") == name_key(fullwidth) == key
    assert name_key("\u0430lice") == key  # a Cyrillic a
    assert check_account_name("\u0430\u0441\u0435")[1] == name_key("ace")  # all Cyrillic
    assert name_key("Straße") == name_key("STRASSE")  # case folding, not lower()


def test_a_name_keeps_the_form_it_was_typed_in() -> None:
    assert check_account_name("Zoë_99") == ("Zoë_99", "zoë_99")
    assert check_account_name("Zoe\u0308")[0] == "Zoë"  # NFC
    assert check_account_name("さくら")[0] == "さくら"
    assert check_account_name("山田タロウ")[0] == "山田タロウ"  # Japanese mixes its scripts


@pytest.mark.parametrize("name", ["a", "x" * 21, "", "two words", "tab\there", "a\u200bb",
                                  "bi\u202edi", "semi;colon", "\u0301accent", 42, None,
                                  # punctuation alone: `/@/..` is no profile's page
                                  "..", "...", "-_-", "._."])
def test_malformed_names_are_refused(name: object) -> None:
    assert refusal(name) is ErrorCode.BAD_ACCOUNT_NAME


@pytest.mark.parametrize("name", ["p\u0430ypal", "\u0396eus1", "abc\u0430\u0431\u0432"])
def test_names_mixing_scripts_are_refused(name: str) -> None:
    assert refusal(name) is ErrorCode.MIXED_SCRIPTS


@pytest.mark.parametrize("name", ["admin", "ADMIN", "\u0430dmin", "Bot", "guest", "big_money",
                                  "Big-Money", "smithy_big_money", "random"])
def test_reserved_names_are_refused_in_every_look(name: str) -> None:
    code = refusal(name)
    assert code in (ErrorCode.NAME_RESERVED, ErrorCode.MIXED_SCRIPTS)
    if name.isascii():
        assert code is ErrorCode.NAME_RESERVED
