"""Cards as data: cost, types, texts and the simple "+" bonuses.

Every card the engine knows is registered explicitly in `_CARDS`. The three cards
whose texts changed between editions have one entry per edition. What a card does
beyond its "+" bonuses is its effect, in `effects/` (which imports nothing from here).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from .card_words import NAMES, TEXTS, text_key
from .frozen import reduce_frozen


class CardType(StrEnum):
    TREASURE = "treasure"
    VICTORY = "victory"
    CURSE = "curse"
    ACTION = "action"
    ATTACK = "attack"
    REACTION = "reaction"


@dataclass(frozen=True, slots=True)
class Card:
    id: str
    name: str
    name_pl: str
    cost: int
    types: tuple[CardType, ...]
    editions: tuple[int, ...]
    text: str
    """English, paraphrased from the published card (docs/RULES.md)."""
    text_pl: str
    """Polish, in the Polish rulebook's words (dodaj, odrzuć, wyrzuć na Śmietnisko, ...)."""
    coins: int = 0
    """Coins a Treasure makes, or +coins of an Action."""
    cards: int = 0
    actions: int = 0
    buys: int = 0
    vp: int = 0
    """Victory points the card is worth on its own (Curse: -1)."""
    vp_per_cards: int = 0
    """Also 1 VP per this many cards its owner has, rounded down (Gardens: 10); 0: none."""
    kingdom: bool = True
    is_action: bool = field(init=False)
    is_treasure: bool = field(init=False)
    is_victory: bool = field(init=False)
    is_attack: bool = field(init=False)
    scores: bool = field(init=False)
    """Whether it is worth points (`points_dict` is not empty): read at every game's end."""

    def __reduce__(self) -> tuple[type[Any], tuple[Any, ...]]:
        return reduce_frozen(self)

    def __post_init__(self) -> None:
        for flag, kind in (
            ("is_action", CardType.ACTION),
            ("is_treasure", CardType.TREASURE),
            ("is_victory", CardType.VICTORY),
            ("is_attack", CardType.ATTACK),
        ):
            object.__setattr__(self, flag, kind in self.types)
        object.__setattr__(self, "scores", bool(self.points_dict()))

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "name": self.name,
            "name_pl": self.name_pl,
            "cost": self.cost,
            "types": [t.value for t in self.types],
            "editions": list(self.editions),
            "text": self.text,
            "text_pl": self.text_pl,
            "kingdom": self.kingdom,
        } | self.translations() | self.coins_dict() | self.points_dict()

    def translations(self) -> dict[str, str]:
        """The name and text in the other languages clients speak (`card_words.py`)."""
        key = text_key(self.id, self.editions, _CHANGED_TEXTS)
        words = {}
        for lang, names in NAMES.items():
            words[f"name_{lang}"] = names[self.id]
            words[f"text_{lang}"] = TEXTS[lang][key]
        return words

    def coins_dict(self) -> dict[str, int]:
        """What a Treasure makes when played, for clients: `coins` (other cards: none)."""
        return {"coins": self.coins} if CardType.TREASURE in self.types else {}

    def points_dict(self) -> dict[str, int]:
        """What the card scores, for clients: `vp` when fixed (Victory cards and Curses),
        `vp_per_cards` when it depends on the owner's number of cards; neither: none."""
        if self.vp_per_cards:
            return {"vp_per_cards": self.vp_per_cards}
        if self.vp or self.is_victory or CardType.CURSE in self.types:
            return {"vp": self.vp}
        return {}


T, V, C, A = CardType.TREASURE, CardType.VICTORY, CardType.CURSE, CardType.ACTION
ATK, REA = CardType.ATTACK, CardType.REACTION
BOTH, FIRST, SECOND = (1, 2), (1,), (2,)

_CARDS: tuple[Card, ...] = (
    # Base cards, in every game.
    Card("copper", "Copper", "Miedziaki", 0, (T,), BOTH, "+1 coin.",
         "+1 moneta.", coins=1, kingdom=False),
    Card("silver", "Silver", "Srebrniki", 3, (T,), BOTH, "+2 coins.",
         "+2 monety.", coins=2, kingdom=False),
    Card("gold", "Gold", "Złoto", 6, (T,), BOTH, "+3 coins.",
         "+3 monety.", coins=3, kingdom=False),
    Card("estate", "Estate", "Posiadłość", 2, (V,), BOTH, "1 VP.",
         "1 punkt zwycięstwa.", vp=1, kingdom=False),
    Card("duchy", "Duchy", "Powiat", 5, (V,), BOTH, "3 VP.",
         "3 punkty zwycięstwa.", vp=3, kingdom=False),
    Card("province", "Province", "Prowincja", 8, (V,), BOTH, "6 VP.",
         "6 punktów zwycięstwa.", vp=6, kingdom=False),
    Card("curse", "Curse", "Klątwa", 0, (C,), BOTH, "-1 VP.",
         "-1 punkt zwycięstwa.", vp=-1, kingdom=False),
    # Kingdom cards of both editions.
    Card("cellar", "Cellar", "Piwnica", 2, (A,), BOTH,
         "+1 Action. Discard any number of cards, then draw that many.",
         "+1 akcja. Odrzuć dowolną liczbę kart z ręki, a następnie dobierz tyle samo kart.",
         actions=1),
    Card("chapel", "Chapel", "Kaplica", 2, (A,), BOTH,
         "Trash up to 4 cards from your hand.",
         "Wyrzuć na Śmietnisko do 4 kart z ręki."),
    Card("moat", "Moat", "Fosa", 2, (A, REA), BOTH,
         "+2 Cards. When another player plays an Attack card, you may first reveal this "
         "from your hand, to be unaffected by it.",
         "+2 karty. Kiedy inny gracz zagrywa kartę Ataku, możesz najpierw odkryć tę kartę z ręki, "
         "aby ten Atak cię nie dotyczył.",
         cards=2),
    Card("village", "Village", "Wioska", 3, (A,), BOTH, "+1 Card, +2 Actions.",
         "+1 karta, +2 akcje.",
         cards=1, actions=2),
    Card("workshop", "Workshop", "Warsztat", 3, (A,), BOTH,
         "Gain a card costing up to 4.",
         "Dodaj kartę kosztującą do 4 monet."),
    Card("bureaucrat", "Bureaucrat", "Urzędnik", 4, (A, ATK), BOTH,
         "Gain a Silver onto your deck. Each other player reveals a Victory card from their "
         "hand and puts it onto their deck (or reveals a hand with no Victory cards).",
         "Dodaj Srebrniki na wierzch swojej talii. Każdy inny gracz odkrywa kartę Zwycięstwa z "
         "ręki i kładzie ją na wierzch swojej talii (albo odkrywa rękę bez kart Zwycięstwa)."),
    Card("gardens", "Gardens", "Ogrody", 4, (V,), BOTH,
         "Worth 1 VP per 10 cards you have (round down).",
         "Warte 1 punkt zwycięstwa za każde 10 posiadanych kart (w zaokrągleniu w dół).",
         vp_per_cards=10),
    Card("militia", "Militia", "Milicja", 4, (A, ATK), BOTH,
         "+2 coins. Each other player discards down to 3 cards in hand.",
         "+2 monety. Każdy inny gracz odrzuca karty z ręki, aż zostaną mu na niej 3 karty.",
         coins=2),
    Card("remodel", "Remodel", "Przebudowa", 4, (A,), BOTH,
         "Trash a card from your hand. Gain a card costing up to 2 more than it.",
         "Wyrzuć kartę z ręki na Śmietnisko. Dodaj kartę kosztującą maksymalnie o 2 monety więcej "
         "niż ona."),
    Card("smithy", "Smithy", "Kuźnia", 4, (A,), BOTH, "+3 Cards.",
         "+3 karty.", cards=3),
    Card("council_room", "Council Room", "Sala obrad", 5, (A,), BOTH,
         "+4 Cards, +1 Buy. Each other player draws a card.",
         "+4 karty, +1 zakup. Każdy inny gracz dobiera kartę.",
         cards=4, buys=1),
    Card("festival", "Festival", "Festyn", 5, (A,), BOTH, "+2 Actions, +1 Buy, +2 coins.",
         "+2 akcje, +1 zakup, +2 monety.",
         actions=2, buys=1, coins=2),
    Card("laboratory", "Laboratory", "Laboratorium", 5, (A,), BOTH, "+2 Cards, +1 Action.",
         "+2 karty, +1 akcja.",
         cards=2, actions=1),
    Card("library", "Library", "Biblioteka", 5, (A,), BOTH,
         "Draw until you have 7 cards in hand, skipping any Action cards you choose to; "
         "set those aside, discarding them afterwards.",
         "Dobieraj karty, aż będziesz mieć 7 kart na ręce. Każdą dobraną kartę Akcji możesz "
         "odłożyć na bok; odłożone karty odrzuć po zakończeniu dobierania."),
    Card("market", "Market", "Targowisko", 5, (A,), BOTH,
         "+1 Card, +1 Action, +1 Buy, +1 coin.",
         "+1 karta, +1 akcja, +1 zakup, +1 moneta.", cards=1, actions=1, buys=1, coins=1),
    Card("witch", "Witch", "Wiedźma", 5, (A, ATK), BOTH,
         "+2 Cards. Each other player gains a Curse.",
         "+2 karty. Każdy inny gracz dodaje Klątwę.", cards=2),
    # The three cards whose texts changed: first edition made the choice mandatory.
    Card("moneylender", "Moneylender", "Lichwiarz", 4, (A,), SECOND,
         "You may trash a Copper from your hand for +3 coins.",
         "Możesz wyrzucić na Śmietnisko Miedziaki z ręki, aby otrzymać +3 monety."),
    Card("moneylender", "Moneylender", "Lichwiarz", 4, (A,), FIRST,
         "Trash a Copper from your hand. If you do, +3 coins.",
         "Wyrzuć na Śmietnisko Miedziaki z ręki. Jeśli to zrobisz, +3 monety."),
    Card("mine", "Mine", "Kopalnia", 5, (A,), SECOND,
         "You may trash a Treasure from your hand. Gain a Treasure to your hand costing "
         "up to 3 more than it.",
         "Możesz wyrzucić na Śmietnisko kartę Skarbu z ręki. Dodaj na rękę kartę Skarbu kosztującą"
         " maksymalnie o 3 monety więcej niż ona."),
    Card("mine", "Mine", "Kopalnia", 5, (A,), FIRST,
         "Trash a Treasure from your hand. Gain a Treasure costing up to 3 more; "
         "put it into your hand.",
         "Wyrzuć na Śmietnisko kartę Skarbu z ręki. Dodaj kartę Skarbu kosztującą maksymalnie o 3 "
         "monety więcej; weź ją na rękę."),
    Card("throne_room", "Throne Room", "Sala tronowa", 4, (A,), SECOND,
         "You may play an Action card from your hand twice.",
         "Możesz zagrać dwukrotnie kartę Akcji z ręki."),
    Card("throne_room", "Throne Room", "Sala tronowa", 4, (A,), FIRST,
         "Choose an Action card in your hand. Play it twice.",
         "Wybierz kartę Akcji z ręki. Zagraj ją dwukrotnie."),
    # Second edition only.
    Card("harbinger", "Harbinger", "Zwiastun", 3, (A,), SECOND,
         "+1 Card, +1 Action. Look through your discard pile. You may put a card from it "
         "onto your deck.",
         "+1 karta, +1 akcja. Przejrzyj swój stos kart odrzuconych. Możesz położyć jedną kartę z "
         "tego stosu na wierzch swojej talii.",
         cards=1, actions=1),
    Card("merchant", "Merchant", "Kupiec", 3, (A,), SECOND,
         "+1 Card, +1 Action. The first time you play a Silver this turn, +1 coin.",
         "+1 karta, +1 akcja. Gdy po raz pierwszy w tej turze zagrasz Srebrniki, +1 moneta.",
         cards=1, actions=1),
    Card("vassal", "Vassal", "Wasal", 3, (A,), SECOND,
         "+2 coins. Discard the top card of your deck. If it's an Action card, you may "
         "play it.",
         "+2 monety. Odrzuć wierzchnią kartę swojej talii. Jeśli jest to karta Akcji, możesz ją "
         "zagrać.",
         coins=2),
    Card("poacher", "Poacher", "Kłusownik", 4, (A,), SECOND,
         "+1 Card, +1 Action, +1 coin. Discard a card per empty Supply pile.",
         "+1 karta, +1 akcja, +1 moneta. Odrzuć z ręki po jednej karcie za każdy pusty stos w "
         "Zasobach.",
         cards=1, actions=1, coins=1),
    Card("bandit", "Bandit", "Bandyta", 5, (A, ATK), SECOND,
         "Gain a Gold. Each other player reveals the top 2 cards of their deck, trashes a "
         "revealed Treasure other than Copper, and discards the rest.",
         "Dodaj Złoto. Każdy inny gracz odkrywa 2 wierzchnie karty swojej talii, wyrzuca na "
         "Śmietnisko odkrytą kartę Skarbu inną niż Miedziaki, a resztę odrzuca."),
    Card("sentry", "Sentry", "Wartownik", 5, (A,), SECOND,
         "+1 Card, +1 Action. Look at the top 2 cards of your deck. Trash and/or discard "
         "any number of them. Put the rest back on top in any order.",
         "+1 karta, +1 akcja. Podejrzyj 2 wierzchnie karty swojej talii. Dowolną ich liczbę wyrzuć"
         " na Śmietnisko i/lub odrzuć. Pozostałe połóż z powrotem na wierzch talii w dowolnej "
         "kolejności.",
         cards=1, actions=1),
    Card("artisan", "Artisan", "Rękodzielnik", 6, (A,), SECOND,
         "Gain a card to your hand costing up to 5. Put a card from your hand onto your "
         "deck.",
         "Dodaj na rękę kartę kosztującą do 5 monet. Połóż kartę z ręki na wierzch swojej talii."),
    # First edition only.
    Card("chancellor", "Chancellor", "Kanclerz", 3, (A,), FIRST,
         "+2 coins. You may immediately put your deck into your discard pile.",
         "+2 monety. Możesz natychmiast przełożyć całą swoją talię na swój stos kart odrzuconych.",
         coins=2),
    Card("woodcutter", "Woodcutter", "Drwal", 3, (A,), FIRST, "+1 Buy, +2 coins.",
         "+1 zakup, +2 monety.",
         buys=1, coins=2),
    Card("feast", "Feast", "Uczta", 4, (A,), FIRST,
         "Trash this card. Gain a card costing up to 5.",
         "Wyrzuć tę kartę na Śmietnisko. Dodaj kartę kosztującą do 5 monet."),
    Card("spy", "Spy", "Szpieg", 4, (A, ATK), FIRST,
         "+1 Card, +1 Action. Each player (including you) reveals the top card of their "
         "deck and either discards it or puts it back, your choice.",
         "+1 karta, +1 akcja. Każdy gracz (łącznie z tobą) odkrywa wierzchnią kartę swojej talii, "
         "a następnie odrzuca ją albo odkłada z powrotem, według twojego wyboru.",
         cards=1, actions=1),
    Card("thief", "Thief", "Złodziej", 4, (A, ATK), FIRST,
         "Each other player reveals the top 2 cards of their deck. If they revealed any "
         "Treasure cards, they trash one of them that you choose. You may gain any or all "
         "of these trashed cards. They discard the other revealed cards.",
         "Każdy inny gracz odkrywa 2 wierzchnie karty swojej talii. Jeśli odkrył jakieś karty "
         "Skarbu, wyrzuca na Śmietnisko jedną z nich, wybraną przez ciebie. Możesz dodać dowolne z"
         " wyrzuconych w ten sposób kart. Pozostałe odkryte karty gracze odrzucają."),
    Card("adventurer", "Adventurer", "Odkrywca", 6, (A,), FIRST,
         "Reveal cards from your deck until you reveal 2 Treasure cards. Put those "
         "Treasure cards into your hand and discard the other revealed cards.",
         "Odkrywaj karty z wierzchu swojej talii, aż odkryjesz 2 karty Skarbu. Weź te karty Skarbu"
         " na rękę, a pozostałe odkryte karty odrzuć."),
)

_CHANGED_TEXTS = frozenset(card.id for card in _CARDS
                           if sum(other.id == card.id for other in _CARDS) > 1)
"""The cards whose texts changed between editions: one entry per edition."""

EDITIONS = (1, 2)
BASE_CARDS = ("copper", "silver", "gold", "estate", "duchy", "province", "curse")

_BY_EDITION: dict[int, dict[str, Card]] = {
    edition: {card.id: card for card in _CARDS if edition in card.editions} for edition in EDITIONS
}


def catalogue(edition: int) -> dict[str, Card]:
    """Every card of an edition by id: the 7 base cards and its Kingdom cards."""
    return _BY_EDITION[edition]


def kingdom_cards(edition: int) -> list[str]:
    return [card.id for card in _BY_EDITION[edition].values() if card.kingdom]


def all_cards() -> list[dict[str, Any]]:
    """Every card once, as plain data; a card whose text changed has one entry per text."""
    return [card.to_dict() for card in _CARDS]


def catalogue_dict() -> dict[str, list[dict[str, Any]]]:
    """The catalogue as plain data, per edition, for clients."""
    return {str(e): [card.to_dict() for card in _BY_EDITION[e].values()] for e in EDITIONS}
