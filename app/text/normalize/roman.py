"""The ROMAN rule's pattern (in RULES of rules.py) and a numeral's value (read in render.py)."""

from __future__ import annotations

import re

# Roman numerals where a reader expects one: a numbered part (Chapter IV, World War II) is
# read as a number, a ruler (Henry VIII, Louis XIV) as "the eighth".
_PART_WORDS = [
    "Chapter",
    "Part",
    "Volume",
    "Vol\\.",
    "Book",
    "Act",
    "Scene",
    "World War",
    "Phase",
    "Section",
    "Episode",
    "Season",
    "Article",
    "Appendix",
    "Round",
    "Type",
    "Class",
    "Level",
    "Grade",
    "Stage",
    "Category",
    "Mark",
    "Model",
    "Title",
    "Tier",
    "Division",
    "Schedule",
    "Step",
    "Unit",
    "Lesson",
    "Page",
    "Table",
    "Figure",
    "Super Bowl",
]
# As written in a title (Part) or in capitals (PART), not in lower case ("a mark I made").
_PARTS = "|".join(_PART_WORDS + [w.upper() for w in _PART_WORDS])
_RULERS = (
    r"Henry|Louis|Elizabeth|George|Edward|Charles|James|William|Richard|John Paul|Benedict|Leo|"
    r"Pius|Peter|Catherine|Philip|Frederick|Ferdinand|Alexander|Nicholas|Mary|Victoria|Ramesses|"
    r"Gregory|Innocent|Clement|Napoleon|Ivan|Wilhelm|Francis"
)
_NUMERAL = r"(?:XC|XL|L?X{0,3})(?:IX|IV|V?I{0,3})"
# Capitalised words before a pronoun I that are no names ("Not I.", "Then I.").
_NOT_NAMES = (
    "Not|Nor|Then|So|And|But|Or|If|Yes|No|Me|As|Than|Even|Only|Neither|Either|Who|Why|What|"
    "Where|How|When|Now|Here|There|Did|Do|Am|Was|Were|Could|Should|Would|Can|Will|May|Must|Have"
)
# Any other capitalised name before a numeral of two letters or more is a ruler or an heir
# (Sam II, John Smith III): "the second".
ROMAN = re.compile(
    r"\b(?:(?P<part>" + _PARTS + r")|(?P<ruler>" + _RULERS + r"))\s(?P<numeral>" + _NUMERAL + r")"
    r"\b(?!\.\w)"
    r"|\b(?!(?:"
    + _NOT_NAMES
    + r")\b)(?P<heir>[A-Z][a-z]+)\s(?P<heir_numeral>(?=[IVXL]{2}|I\b)"
    + _NUMERAL
    + r")\b(?![.'’]\w)"
)


def roman_value(numeral: str) -> int:
    values = {"I": 1, "V": 5, "X": 10, "L": 50, "C": 100}
    total = 0
    for a, b in zip(numeral, numeral[1:] + " "):
        total += -values[a] if values.get(b, 0) > values[a] else values[a]
    return total
