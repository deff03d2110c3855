"""Card names and texts in Slovak and Lithuanian, for clients (`name_sk`, `text_lt`, ...).

The base cards' names are the Slovak and Lithuanian rules summaries' (meď, striebro, zlato,
panstvo, vojvodstvo, provincia, prekliatie; varis, sidabras, auksas, dvaras,
kunigaikštystė, provincija, prakeiksmas); the Kingdom cards' are the names their players
use, listed in docs/CLIENTS.md. Kept apart from `cards.py` so that the rules' data stays
short; a card whose text changed between editions has its text per edition ("mine:1").
"""

from __future__ import annotations

from enum import StrEnum


class CardLanguage(StrEnum):
    SLOVAK = "sk"
    LITHUANIAN = "lt"


SK, LT = CardLanguage.SLOVAK, CardLanguage.LITHUANIAN

NAMES: dict[CardLanguage, dict[str, str]] = {
    SK: {
        "copper": "Meď", "silver": "Striebro", "gold": "Zlato", "estate": "Panstvo",
        "duchy": "Vojvodstvo", "province": "Provincia", "curse": "Prekliatie",
        "cellar": "Pivnica", "chapel": "Kaplnka", "moat": "Priekopa", "village": "Dedina",
        "workshop": "Dielňa", "bureaucrat": "Úradník", "gardens": "Záhrady",
        "militia": "Milícia", "remodel": "Prestavba", "smithy": "Vyhňa",
        "council_room": "Zasadacia sieň", "festival": "Slávnosť",
        "laboratory": "Laboratórium", "library": "Knižnica", "market": "Trh",
        "witch": "Čarodejnica", "moneylender": "Úžerník", "mine": "Baňa",
        "throne_room": "Trónna sieň", "harbinger": "Predzvesť", "merchant": "Obchodník",
        "vassal": "Vazal", "poacher": "Pytliak", "bandit": "Bandita", "sentry": "Hliadka",
        "artisan": "Remeselník", "chancellor": "Kancelár", "woodcutter": "Drevorubač",
        "feast": "Hostina", "spy": "Špión", "thief": "Zlodej", "adventurer": "Dobrodruh",
    },
    LT: {
        "copper": "Varis", "silver": "Sidabras", "gold": "Auksas", "estate": "Dvaras",
        "duchy": "Kunigaikštystė", "province": "Provincija", "curse": "Prakeiksmas",
        "cellar": "Rūsys", "chapel": "Koplyčia", "moat": "Griovys", "village": "Kaimas",
        "workshop": "Dirbtuvės", "bureaucrat": "Biurokratas", "gardens": "Sodai",
        "militia": "Milicija", "remodel": "Perstatymas", "smithy": "Kalvė",
        "council_room": "Tarybos salė", "festival": "Festivalis",
        "laboratory": "Laboratorija", "library": "Biblioteka", "market": "Turgus",
        "witch": "Ragana", "moneylender": "Palūkininkas", "mine": "Kasykla",
        "throne_room": "Sosto salė", "harbinger": "Pranašas", "merchant": "Pirklys",
        "vassal": "Vasalas", "poacher": "Brakonierius", "bandit": "Banditas",
        "sentry": "Sargybinis", "artisan": "Amatininkas", "chancellor": "Kancleris",
        "woodcutter": "Medkirtys", "feast": "Puota", "spy": "Šnipas", "thief": "Vagis",
        "adventurer": "Nuotykių ieškotojas",
    },
}

TEXTS: dict[CardLanguage, dict[str, str]] = {
    SK: {
        "copper": "+1 minca.",
        "silver": "+2 mince.",
        "gold": "+3 mince.",
        "estate": "1 víťazný bod.",
        "duchy": "3 víťazné body.",
        "province": "6 víťazných bodov.",
        "curse": "-1 víťazný bod.",
        "cellar": "+1 akcia. Odhoď z ruky ľubovoľný počet kariet a potom si potiahni rovnaký "
                  "počet kariet.",
        "chapel": "Zahoď do koša až 4 karty z ruky.",
        "moat": "+2 karty. Keď iný hráč zahrá kartu útoku, môžeš najprv ukázať túto kartu z "
                "ruky, aby sa ťa útok netýkal.",
        "village": "+1 karta, +2 akcie.",
        "workshop": "Získaj kartu, ktorá stojí najviac 4 mince.",
        "bureaucrat": "Získaj Striebro na vrch svojho balíčka. Každý ďalší hráč ukáže kartu "
                      "víťazstva z ruky a položí ju na vrch svojho balíčka (alebo ukáže ruku "
                      "bez kariet víťazstva).",
        "gardens": "Má hodnotu 1 víťazného bodu za každých 10 kariet, ktoré vlastníš "
                   "(zaokrúhlené nadol).",
        "militia": "+2 mince. Každý ďalší hráč odhadzuje karty z ruky, kým mu v nej "
                   "nezostanú 3 karty.",
        "remodel": "Zahoď kartu z ruky do koša. Získaj kartu, ktorá stojí najviac o 2 mince "
                   "viac než ona.",
        "smithy": "+3 karty.",
        "council_room": "+4 karty, +1 nákup. Každý ďalší hráč si potiahne kartu.",
        "festival": "+2 akcie, +1 nákup, +2 mince.",
        "laboratory": "+2 karty, +1 akcia.",
        "library": "Ťahaj karty, kým nebudeš mať v ruke 7 kariet. Každú potiahnutú kartu "
                   "akcie môžeš odložiť bokom; odložené karty po ťahaní odhoď.",
        "market": "+1 karta, +1 akcia, +1 nákup, +1 minca.",
        "witch": "+2 karty. Každý ďalší hráč získa Prekliatie.",
        "moneylender:2": "Môžeš zahodiť do koša Meď z ruky a dostať +3 mince.",
        "moneylender:1": "Zahoď do koša Meď z ruky. Ak to urobíš, +3 mince.",
        "mine:2": "Môžeš zahodiť do koša kartu pokladu z ruky. Získaj do ruky kartu pokladu, "
                  "ktorá stojí najviac o 3 mince viac než ona.",
        "mine:1": "Zahoď do koša kartu pokladu z ruky. Získaj kartu pokladu, ktorá stojí "
                  "najviac o 3 mince viac; vezmi si ju do ruky.",
        "throne_room:2": "Môžeš zahrať kartu akcie z ruky dvakrát.",
        "throne_room:1": "Vyber kartu akcie z ruky. Zahraj ju dvakrát.",
        "harbinger": "+1 karta, +1 akcia. Prezri si svoj odhadzovací balíček. Môžeš z neho "
                     "položiť jednu kartu na vrch svojho balíčka.",
        "merchant": "+1 karta, +1 akcia. Keď v tomto ťahu prvýkrát zahráš Striebro, +1 minca.",
        "vassal": "+2 mince. Odhoď vrchnú kartu svojho balíčka. Ak je to karta akcie, môžeš "
                  "ju zahrať.",
        "poacher": "+1 karta, +1 akcia, +1 minca. Odhoď z ruky jednu kartu za každú prázdnu "
                   "kôpku v zásobe.",
        "bandit": "Získaj Zlato. Každý ďalší hráč ukáže 2 vrchné karty svojho balíčka, zahodí "
                  "do koša ukázanú kartu pokladu inú ako Meď a zvyšok odhodí.",
        "sentry": "+1 karta, +1 akcia. Pozri sa na 2 vrchné karty svojho balíčka. Ľubovoľný "
                  "počet z nich zahoď do koša a/alebo odhoď. Zvyšok vráť na vrch balíčka v "
                  "ľubovoľnom poradí.",
        "artisan": "Získaj do ruky kartu, ktorá stojí najviac 5 mincí. Polož kartu z ruky na "
                   "vrch svojho balíčka.",
        "chancellor": "+2 mince. Môžeš okamžite preložiť celý svoj balíček na svoj "
                      "odhadzovací balíček.",
        "woodcutter": "+1 nákup, +2 mince.",
        "feast": "Zahoď túto kartu do koša. Získaj kartu, ktorá stojí najviac 5 mincí.",
        "spy": "+1 karta, +1 akcia. Každý hráč (aj ty) ukáže vrchnú kartu svojho balíčka a "
               "potom ju odhodí alebo vráti späť, podľa tvojej voľby.",
        "thief": "Každý ďalší hráč ukáže 2 vrchné karty svojho balíčka. Ak ukázal nejaké "
                 "karty pokladu, zahodí do koša jednu z nich, ktorú vyberieš ty. Môžeš získať "
                 "ľubovoľné z takto zahodených kariet. Ostatné ukázané karty hráči odhodia.",
        "adventurer": "Ukazuj karty z vrchu svojho balíčka, kým neukážeš 2 karty pokladu. "
                      "Vezmi si tieto karty pokladu do ruky a ostatné ukázané karty odhoď.",
    },
    LT: {
        "copper": "+1 moneta.",
        "silver": "+2 monetos.",
        "gold": "+3 monetos.",
        "estate": "1 pergalės taškas.",
        "duchy": "3 pergalės taškai.",
        "province": "6 pergalės taškai.",
        "curse": "-1 pergalės taškas.",
        "cellar": "+1 veiksmas. Išmesk iš rankos bet kiek kortų, tada trauk tiek pat kortų.",
        "chapel": "Mesk į šiukšlyną iki 4 kortų iš rankos.",
        "moat": "+2 kortos. Kai kitas žaidėjas žaidžia atakos kortą, pirmiau gali atskleisti "
                "šią kortą iš rankos, kad ataka tavęs nepaveiktų.",
        "village": "+1 korta, +2 veiksmai.",
        "workshop": "Gauk kortą, kainuojančią iki 4 monetų.",
        "bureaucrat": "Gauk Sidabrą ant savo denio viršaus. Kiekvienas kitas žaidėjas "
                      "atskleidžia pergalės kortą iš rankos ir padeda ją ant savo denio "
                      "viršaus (arba atskleidžia ranką be pergalės kortų).",
        "gardens": "Vertė: 1 pergalės taškas už kiekvienas 10 turimų kortų (apvalinant žemyn).",
        "militia": "+2 monetos. Kiekvienas kitas žaidėjas išmeta kortas iš rankos, kol joje "
                   "lieka 3 kortos.",
        "remodel": "Mesk kortą iš rankos į šiukšlyną. Gauk kortą, kainuojančią daugiausia 2 "
                   "monetomis daugiau nei ji.",
        "smithy": "+3 kortos.",
        "council_room": "+4 kortos, +1 pirkimas. Kiekvienas kitas žaidėjas traukia kortą.",
        "festival": "+2 veiksmai, +1 pirkimas, +2 monetos.",
        "laboratory": "+2 kortos, +1 veiksmas.",
        "library": "Trauk kortas, kol rankoje turėsi 7 kortas. Kiekvieną ištrauktą veiksmo "
                   "kortą gali atidėti į šalį; atidėtas kortas baigęs traukti išmesk.",
        "market": "+1 korta, +1 veiksmas, +1 pirkimas, +1 moneta.",
        "witch": "+2 kortos. Kiekvienas kitas žaidėjas gauna Prakeiksmą.",
        "moneylender:2": "Gali mesti Varį iš rankos į šiukšlyną ir gauti +3 monetas.",
        "moneylender:1": "Mesk Varį iš rankos į šiukšlyną. Jei taip padarei, +3 monetos.",
        "mine:2": "Gali mesti lobio kortą iš rankos į šiukšlyną. Gauk į ranką lobio kortą, "
                  "kainuojančią daugiausia 3 monetomis daugiau nei ji.",
        "mine:1": "Mesk lobio kortą iš rankos į šiukšlyną. Gauk lobio kortą, kainuojančią "
                  "daugiausia 3 monetomis daugiau; paimk ją į ranką.",
        "throne_room:2": "Gali du kartus sužaisti veiksmo kortą iš rankos.",
        "throne_room:1": "Pasirink veiksmo kortą rankoje. Sužaisk ją du kartus.",
        "harbinger": "+1 korta, +1 veiksmas. Peržiūrėk savo išmestų kortų krūvą. Gali padėti "
                     "vieną jos kortą ant savo denio viršaus.",
        "merchant": "+1 korta, +1 veiksmas. Pirmą kartą šiame ėjime sužaidęs Sidabrą, "
                    "+1 moneta.",
        "vassal": "+2 monetos. Išmesk viršutinę savo denio kortą. Jei tai veiksmo korta, gali "
                  "ją sužaisti.",
        "poacher": "+1 korta, +1 veiksmas, +1 moneta. Išmesk iš rankos po kortą už kiekvieną "
                   "tuščią atsargų krūvą.",
        "bandit": "Gauk Auksą. Kiekvienas kitas žaidėjas atskleidžia 2 viršutines savo denio "
                  "kortas, meta į šiukšlyną atskleistą lobio kortą, kuri nėra Varis, o kitas "
                  "išmeta.",
        "sentry": "+1 korta, +1 veiksmas. Pažiūrėk į 2 viršutines savo denio kortas. Bet kiek "
                  "jų mesk į šiukšlyną ir (arba) išmesk. Likusias padėk atgal ant viršaus bet "
                  "kokia tvarka.",
        "artisan": "Gauk į ranką kortą, kainuojančią iki 5 monetų. Padėk kortą iš rankos ant "
                   "savo denio viršaus.",
        "chancellor": "+2 monetos. Gali iš karto perkelti visą savo denį į savo išmestų kortų "
                      "krūvą.",
        "woodcutter": "+1 pirkimas, +2 monetos.",
        "feast": "Mesk šią kortą į šiukšlyną. Gauk kortą, kainuojančią iki 5 monetų.",
        "spy": "+1 korta, +1 veiksmas. Kiekvienas žaidėjas (ir tu) atskleidžia viršutinę savo "
               "denio kortą ir ją išmeta arba padeda atgal – tavo pasirinkimu.",
        "thief": "Kiekvienas kitas žaidėjas atskleidžia 2 viršutines savo denio kortas. Jei "
                 "atskleidė lobio kortų, meta į šiukšlyną vieną iš jų, kurią pasirenki tu. "
                 "Gali gauti bet kurias iš taip išmestų į šiukšlyną kortų. Kitas atskleistas "
                 "kortas žaidėjai išmeta.",
        "adventurer": "Atskleidinėk kortas nuo savo denio viršaus, kol atskleisi 2 lobio "
                      "kortas. Paimk šias lobio kortas į ranką, o kitas atskleistas kortas "
                      "išmesk.",
    },
}


def text_key(card_id: str, editions: tuple[int, ...], changed: frozenset[str]) -> str:
    """A text's key: the card's id, with its edition for a card whose text changed."""
    return f"{card_id}:{editions[0]}" if card_id in changed else card_id


__all__ = ["NAMES", "TEXTS", "CardLanguage", "text_key"]
