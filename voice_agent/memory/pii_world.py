"""Street addresses of the rest of the world: house number and street in the orders countries use.

``pii_text`` finds English (``221B Baker Street``) and Chinese (``建国路88号``) addresses; this module finds:

- a street keyword, the street's name, then the number: ``ul. Miła 53``, ``Via Roma 10``,
  ``Calle Mayor 5``, ``Rua Augusta, 120``, ``Πλατεία Συντάγματος 204``, ``ул. Ленина, д. 5``;
- the number first, then keyword and name: ``12 rue de la Paix``, ``5 avenue Victor Hugo``;
- a street word glued to or after the name, then the number: ``Hauptstraße 5``, ``Unter den Linden 77``
  (with a postcode after it), ``Nørrebrogade 12``, ``Kungsgatan 4``, ``Andrássy út 60``;
- a Slavic adjective street name and number: ``Dunajska 56``, ``Prešernova 3``;
- a postcode beside its city: ``10115 Berlin``, ``75002 Paris``, ``00-950 Warszawa``, ``115 57 Αθήνα``,
  ``1012 AB Amsterdam``, ``SI-1000 Ljubljana``;
- and the rest of an address written over several lines or after commas (postcode, city, country).

Names are capitalised words in any script (Latin, Greek, Cyrillic) with their small connecting words
(de, la, di, von, der…). Every pattern is bounded, so matching stays linear in the input.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from voice_agent.memory.pii_numbers import Detection

_UP = "A-ZÀ-ÖØ-ÞĀ-žΑ-ΩΆ-Ώ\u0400-\u042f"  # upper case Latin, Latin-1, Latin Extended-A, Greek, Cyrillic
_WORD = rf"[{_UP}][^\W\d_]*(?:[-'’][^\W\d_]+)*\.?"
_CONNECT = (
    r"(?:de|del|de[ \t]la|de[ \t]los|de[ \t]las|di|da|do|dos|das|della|dei|degli|delle|du|des|la|le|les|"
    r"l'|d'|van|von|der|den|zu|am|an|im|y|e|i|św\.|im\.|gen\.|ks\.|al\.|św)"
)
_NAME = rf"{_WORD}(?:[ \t]+(?:{_CONNECT}[ \t]+)?{_WORD}){{0,4}}"
_HOUSE = r"\d{1,4}[A-Za-z]?(?:[ \t]?(?:bis|ter))?(?:[/-]\d{1,4}[A-Za-z]?)?(?![\d])"
_NUMBER_WORD = r"(?:(?:nr|no|n|nº|n°|№|д|дом|num|núm|número)\.?[ \t]*)?"
_KEYWORD_FIRST = (
    r"ul\.|ulica|ulice|al\.|aleja|os\.|osiedle|pl\.|plac|náměstí|nám\.|třída|"
    r"Via|Viale|V\.le|Piazza|P\.za|Piazzale|Corso|Largo|Vicolo|Strada|Contrada|Borgo|"
    r"Calle|C/|Avenida|Avda\.?|Av\.|Plaza|Paseo|Pasaje|Camino|Carrera|Carrer|Passeig|Ronda|Travesía|"
    r"Rua|R\.|Travessa|Praça|Estrada|Alameda|Rodovia|Largo|"
    r"Bulevardul|Bd\.|Calea|Aleea|Şoseaua|Soseaua|Splaiul|Strada|Str\.|"
    r"Rue|Avenue|Boulevard|Bld\.|Place|Chemin|Allée|Impasse|Quai|Route|Cours|"
    r"Οδός|Οδ\.|Λεωφόρος|Λεωφ\.|Πλατεία|"
    r"улица|ул\.|проспект|просп\.|пр-т|переулок|пер\.|площадь|пл\.|бульвар|б-р|шоссе|набережная|наб\.|"
    r"вулиця|вул\.|провулок|пров\."
)
_STREET_SUFFIX = (
    r"straße|strasse|str\.|weg|gasse|platz|allee|ring|damm|ufer|steig|pfad|chaussee|markt|graben|"
    r"vej|gade|gatan|vägen|väg|gränd|torget|veien|vegen|gata|gate|straat|laan|gracht|kade|plein|singel|"
    r"dijk|tie|katu|kuja|polku|utca|sokak|sokağı|caddesi|bulvarı"
)
_STREET_WORD = (
    r"Straße|Strasse|Str\.|Weg|Allee|Platz|Gasse|Ring|utca|út|útja|tér|körút|cesta|ulica|ulice|"
    r"Sokak|Sokağı|Caddesi|Cad\.|Bulvarı|Mahallesi|Mah\.|gatvė|g\.|alėja|al\.|prospektas|pr\.|iela|"
    r"bulvāris|tänav|mnt|maantee|puiestee|"
    # English words in European order: "Wenceslas Square 21"
    r"Street|Road|Avenue|Square|Lane|Boulevard|Place|Embankment"
)
_SLAVIC = (
    r"[A-ZČŠŽĆĐŁŚŹŻ][^\W\d_]{2,}(?:ska|ška|ská|ški|ski|sky|cka|čka|ova|ová|eva|ina|ovo|evo|owa|iego|skiego)"
)
_KEYWORD_LEAD = (
    r"(?i:rue|avenue|av\.|boulevard|bd|place|chemin|allée|impasse|quai|route|cours|via|viale|piazza|"
    r"calle|avenida|plaza|paseo|rua|travessa|praça|strada)"
)
_POSTCODE = (
    r"(?:(?:[A-Z]{1,2}-)?\d{2}-\d{3}|\d{3}[ \t]\d{2}|\d{4}[ \t]?[A-Z]{2}(?![A-Za-z])|(?:[A-Z]{1,2}-)?\d{4,6})"
    r"(?!\d)"
)
_NOT_CITY = (
    r"(?:January|February|March|April|May|June|July|August|September|October|November|December|Monday|"
    r"Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday|Euro|Euros|Dollars?|Pounds?|Yen|Yuan|Rupees?|"
    r"Steps|Calories|Points|Words|Miles|People|Users|Views|Likes|Followers|I|The|A|An|And|In|On|At|To|"
    r"For|It|We|He|She|They|You|My|Our|This|That|BC|AD|AM|PM|Olympics|Edition|Model|Series|Version)\b"
)
_CITY_WORD = rf"[{_UP}][^\W\d_]*(?:[-'’][^\W\d_]+)*"  # no full stop: "Berlin. Thanks" is two sentences
_CITY = rf"(?!{_NOT_CITY}){_CITY_WORD}(?:[ \t-](?!{_NOT_CITY}){_CITY_WORD}){{0,2}}"
_STREETS = re.compile(
    rf"(?<![\w.])(?:{_KEYWORD_FIRST})[ \t]*{_NAME},?[ \t]+{_NUMBER_WORD}{_HOUSE}"
    rf"|(?<![\w/.,-]){_HOUSE},?[ \t]+{_KEYWORD_LEAD}[ \t]+(?:{_CONNECT}[ \t]*)*{_NAME}"
    rf"|(?<![\w.])(?:{_WORD}[ \t]+){{0,2}}[{_UP}][^\W\d_]*(?:{_STREET_SUFFIX})[ \t]+{_NUMBER_WORD}{_HOUSE}"
    rf"|(?<![\w.])(?:{_WORD}[ \t]+){{0,2}}{_WORD}[ \t]+(?:{_STREET_WORD})[ \t]+{_NUMBER_WORD}{_HOUSE}"
    rf"|(?<![\w.]){_SLAVIC}[ \t]+{_HOUSE}"
    rf"|(?<![\w.])(?:(?i:house|flat|plot|door|building|block|shop)[ \t]+)?(?:No\.?|Nr\.?|\#)[ \t]*{_HOUSE},?"
    rf"[ \t]+(?:{_WORD}[ \t]+){{0,3}}(?i:road|street|marg|nagar|lane|layout|colony|cross|main|avenue|way)\b"
)
_YEAR = re.compile(r"(?:1[89]|20)\d\d")
_DIGIT = re.compile(r"\d")
_LETTER = re.compile(r"[A-Za-zÀ-ɏͰ-ϿЀ-ӿ]")  # the scripts the patterns read (not CJK)
_POSTCODE_CITY = re.compile(rf"(?<![\w.,/:$€£-])(?P<code>{_POSTCODE})[ \t]+{_CITY}")
# A street name alone and a number, made an address by the postcode and city after it.
_NAME_NUMBER_BEFORE_CITY = re.compile(
    rf"(?<![\w.])(?:{_WORD}[ \t]+(?:{_CONNECT}[ \t]+)?){{0,3}}{_WORD}[ \t]+{_HOUSE}"
    rf"(?=,?[ \t]*(?:\n[ \t]*)?(?:{_POSTCODE})[ \t]+{_CITY})"
)
_PLACE_PART = rf"(?:{_POSTCODE})[ \t]+{_CITY}|{_CITY}(?:[ \t]+(?:{_POSTCODE}))?"
_TAIL = re.compile(rf"(?:(?:,[ \t]*|[ \t]*\n[ \t]*)(?:{_PLACE_PART})){{1,3}}")


def find_world_addresses(text: str) -> Iterator[Detection]:
    """House number + street in the world's common orders, and postcodes beside a city."""
    if _DIGIT.search(text) is None or _LETTER.search(text) is None:
        return
    for pattern in (_STREETS, _NAME_NUMBER_BEFORE_CITY):
        for m in pattern.finditer(text):
            yield _with_tail(text, m.start(), m.end())
    for m in _POSTCODE_CITY.finditer(text):
        code = m.group("code")
        if _YEAR.fullmatch(code):
            continue  # "2019 Toyota", "1990 Berlin": a year before a name, not a postcode
        yield _with_tail(text, m.start(), m.end())


def _with_tail(text: str, start: int, end: int) -> Detection:
    tail = _TAIL.match(text, end)
    if tail:
        end = tail.end()
    while text[end - 1] in ".,":
        end -= 1  # the sentence's full stop, not an abbreviation of the address
    return Detection(start, end, "ADDRESS", canonical_world_address(text[start:end]))


def canonical_world_address(text: str) -> str:
    return " ".join(re.sub(r"[^\w]+", " ", text.casefold()).split())
