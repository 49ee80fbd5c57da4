"""English spoken forms (num2words for the numbers)."""

from __future__ import annotations

MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August",
          "September", "October", "November", "December"]
DIGIT_WORDS = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"]
UNITS = {
    "km/h": ("kilometer per hour", "kilometers per hour"), "mph": ("mile per hour", "miles per hour"),
    "km": ("kilometer", "kilometers"), "kg": ("kilogram", "kilograms"), "mg": ("milligram", "milligrams"),
    "g": ("gram", "grams"), "cm": ("centimeter", "centimeters"), "mm": ("millimeter", "millimeters"),
    "m": ("meter", "meters"), "ml": ("milliliter", "milliliters"), "mL": ("milliliter", "milliliters"),
    "L": ("liter", "liters"), "l": ("liter", "liters"), "h": ("hour", "hours"), "min": ("minute", "minutes"),
    "s": ("second", "seconds"), "ms": ("millisecond", "milliseconds"), "Hz": ("hertz", "hertz"),
    "kHz": ("kilohertz", "kilohertz"), "GHz": ("gigahertz", "gigahertz"), "GB": ("gigabyte", "gigabytes"),
    "MB": ("megabyte", "megabytes"), "KB": ("kilobyte", "kilobytes"), "TB": ("terabyte", "terabytes"),
    "kW": ("kilowatt", "kilowatts"), "W": ("watt", "watts"), "V": ("volt", "volts"),
}
CURRENCY = {"$": ("dollar", "dollars", "cent", "cents"), "USD": ("dollar", "dollars", "cent", "cents"),
            "€": ("euro", "euros", "cent", "cents"), "EUR": ("euro", "euros", "cent", "cents"),
            "£": ("pound", "pounds", "penny", "pence"), "¥": ("yuan", "yuan", "fen", "fen"),
            "￥": ("yuan", "yuan", "fen", "fen"), "RMB": ("yuan", "yuan", "fen", "fen"),
            "CNY": ("yuan", "yuan", "fen", "fen")}


# ChatTTS turns "-" into a comma (a pause): "twenty-four" would be read "twenty, four".
def _words(n: int) -> str:
    from num2words import num2words

    return num2words(n).replace(" and ", " ").replace(",", "").replace("-", " ")


def number(text: str) -> str:
    text = text.replace(",", "")
    negative = text.startswith("-")
    text = text.lstrip("-+")
    whole, _, frac = text.partition(".")
    spoken = _words(int(whole or "0"))
    if frac:
        spoken += " point " + " ".join(DIGIT_WORDS[int(c)] for c in frac)
    return ("minus " if negative else "") + spoken


def year(text: str) -> str:
    from num2words import num2words

    return num2words(int(text), to="year").replace("-", " ")


def ordinal(value: str) -> str:
    from num2words import num2words

    return num2words(int(value), to="ordinal").replace("-", " ")


def date(y: str, m: str, d: str) -> str:
    month = int(m)
    if not 1 <= month <= 12:
        return f"{number(y)} {number(m)} {number(d)}"
    return f"{MONTHS[month - 1]} {ordinal(str(int(d)))}, {year(y)}"


def time(h: str, m: str, s: str | None) -> str:
    out = number(str(int(h)))
    minute = int(m)
    if minute == 0 and not s:
        return out + " o'clock"
    out += (" oh " + number(str(minute))) if minute < 10 else " " + number(str(minute))
    if s:
        out += " and " + number(str(int(s))) + " seconds"
    return out


def digits(text: str) -> str:
    return " ".join(DIGIT_WORDS[int(c)] for c in text if c.isdigit())


def phone(text: str) -> str:
    groups = [g for g in text.replace("(", " ").replace(")", " ").replace("-", " ").split() if g]
    spoken = ", ".join(digits(g) for g in groups if any(c.isdigit() for c in g))
    return ("plus " if text.startswith("+") else "") + spoken


def version(prefix: str, parts: list[str]) -> str:
    spoken = " point ".join(number(p) for p in parts)
    return ("version " if prefix else "") + spoken


def currency(symbol: str, amount: str) -> str:
    one, many, sub_one, sub_many = CURRENCY.get(symbol, (symbol, symbol, "", ""))
    amount = amount.replace(",", "")
    whole, _, frac = amount.partition(".")
    n = int(whole or "0")
    out = f"{number(str(n))} {one if n == 1 else many}"
    if frac and int(frac[:2].ljust(2, "0")) and sub_one:
        cents = int(frac[:2].ljust(2, "0"))
        out += f" and {number(str(cents))} {sub_one if cents == 1 else sub_many}"
    return out


def temperature(value: str, unit: str) -> str:
    scale = "Fahrenheit" if unit in ("°F", "℉") else "Celsius"
    degrees = "degree" if value.lstrip("-") == "1" else "degrees"
    return f"{number(value)} {degrees} {scale}"


def percent(value: str) -> str:
    return number(value) + " percent"


def unit(value: str, name: str) -> str:
    one, many = UNITS.get(name, (name, name))
    return f"{number(value)} {one if value.lstrip('-') == '1' else many}"
