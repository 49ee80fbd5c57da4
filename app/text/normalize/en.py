"""English spoken forms (num2words for the numbers)."""

from __future__ import annotations

import re

MONTHS = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
]
DIGIT_WORDS = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"]
UNITS = {
    "km/h": ("kilometer per hour", "kilometers per hour"),
    "mph": ("mile per hour", "miles per hour"),
    "km": ("kilometer", "kilometers"),
    "kg": ("kilogram", "kilograms"),
    "mg": ("milligram", "milligrams"),
    "g": ("gram", "grams"),
    "cm": ("centimeter", "centimeters"),
    "mm": ("millimeter", "millimeters"),
    "m": ("meter", "meters"),
    "ml": ("milliliter", "milliliters"),
    "mL": ("milliliter", "milliliters"),
    "L": ("liter", "liters"),
    "l": ("liter", "liters"),
    "h": ("hour", "hours"),
    "min": ("minute", "minutes"),
    "s": ("second", "seconds"),
    "ms": ("millisecond", "milliseconds"),
    "Hz": ("hertz", "hertz"),
    "kHz": ("kilohertz", "kilohertz"),
    "GHz": ("gigahertz", "gigahertz"),
    "GB": ("gigabyte", "gigabytes"),
    "MB": ("megabyte", "megabytes"),
    "KB": ("kilobyte", "kilobytes"),
    "TB": ("terabyte", "terabytes"),
    "kW": ("kilowatt", "kilowatts"),
    "W": ("watt", "watts"),
    "V": ("volt", "volts"),
    "kWh": ("kilowatt hour", "kilowatt hours"),
    "mAh": ("milliamp hour", "milliamp hours"),
    "lb": ("pound", "pounds"),
    "lbs": ("pound", "pounds"),
    "oz": ("ounce", "ounces"),
    "ft": ("foot", "feet"),
    "mi": ("mile", "miles"),
    "mins": ("minute", "minutes"),
    "hr": ("hour", "hours"),
    "hrs": ("hour", "hours"),
    "secs": ("second", "seconds"),
    "sec": ("second", "seconds"),
    "wk": ("week", "weeks"),
    "wks": ("week", "weeks"),
    "mo": ("month", "months"),
    "mos": ("month", "months"),
    "yr": ("year", "years"),
    "yrs": ("year", "years"),
    "kgs": ("kilogram", "kilograms"),
    "kms": ("kilometer", "kilometers"),
    "m²": ("square meter", "square meters"),
    "m2": ("square meter", "square meters"),
    "km2": ("square kilometer", "square kilometers"),
    "cm2": ("square centimeter", "square centimeters"),
    "㎡": ("square meter", "square meters"),
    "km²": ("square kilometer", "square kilometers"),
    "m³": ("cubic meter", "cubic meters"),
    "cm²": ("square centimeter", "square centimeters"),
    "mm²": ("square millimeter", "square millimeters"),
    "km³": ("cubic kilometer", "cubic kilometers"),
    "cm³": ("cubic centimeter", "cubic centimeters"),
    "m/s": ("meter per second", "meters per second"),
}
_DOLLAR = ("dollar", "dollars", "cent", "cents")
_EURO = ("euro", "euros", "cent", "cents")
_POUND = ("pound", "pounds", "penny", "pence")
CURRENCY = {
    "$": _DOLLAR,
    "USD": _DOLLAR,
    "dollar": _DOLLAR,
    "dollars": _DOLLAR,
    "€": _EURO,
    "EUR": _EURO,
    "euro": _EURO,
    "euros": _EURO,
    "£": _POUND,
    "GBP": _POUND,
    "pound": _POUND,
    "pounds": _POUND,
    "JPY": ("yen", "yen", "sen", "sen"),
    "¢": ("cent", "cents", "", ""),
    # ¥ in English is the yen (as style guides use it; the yuan is CN¥ or RMB); the
    # full-width ￥ of a Chinese keyboard is the yuan (tests/engine/test_numbers_en.py).
    "¥": ("yen", "yen", "sen", "sen"),
    "￥": ("yuan", "yuan", "fen", "fen"),
    "RMB": ("yuan", "yuan", "fen", "fen"),
    "CNY": ("yuan", "yuan", "fen", "fen"),
    "₹": ("rupee", "rupees", "paisa", "paise"),
    "INR": ("rupee", "rupees", "paisa", "paise"),
    "Rs": ("rupee", "rupees", "paisa", "paise"),
    "₩": ("won", "won", "", ""),
    "KRW": ("won", "won", "", ""),
}


# ChatTTS turns "-" into a comma (a pause): "twenty-four" would be read "twenty, four".
def _words(n: int) -> str:
    from num2words import num2words

    return num2words(n).replace(" and ", " ").replace(",", "").replace("-", " ")


def number(text: str) -> str:
    text = text.replace(",", "")
    negative = text.startswith("-")
    text = text.lstrip("-+")
    whole, _, frac = text.partition(".")
    # ".506" is read as written: "point five zero six".
    spoken = _words(int(whole)) if whole or not frac else ""
    if frac:
        spoken += " point " + " ".join(DIGIT_WORDS[int(c)] for c in frac)
        spoken = spoken.lstrip()
    return ("minus " if negative else "") + spoken


def year(text: str) -> str:
    """1990 -> nineteen ninety, 2005 -> two thousand five, 1805 -> eighteen oh five."""
    from num2words import num2words

    return num2words(int(text), to="year").replace(" and ", " ").replace("-", " ")


def decade(text: str) -> str:
    """1990 -> nineteen nineties, 80 -> eighties, 2000 -> two thousands."""
    words = (year(text) if len(text) == 4 else _words(int(text))).split()
    last = words[-1]
    words[-1] = last[:-1] + "ies" if last.endswith("y") else last + "s"
    return " ".join(words)


def year_range(a: str, b: str) -> str:
    return f"{year(a)} to {year(b)}"


def ordinal(value: str) -> str:
    from num2words import num2words

    return (
        num2words(int(value), to="ordinal").replace(" and ", " ").replace(",", "").replace("-", " ")
    )


def _year_of_date(y: str) -> str:
    """A date's year; two digits are said as written: 05 is "oh five", 98 "ninety eight"."""
    if len(y) == 2:
        return ("oh " + DIGIT_WORDS[int(y[1])]) if y[0] == "0" else number(y)
    return year(y)


def date(y: str, m: str, d: str, day_first: bool = False) -> str:
    """In the order written: 12/25/2024 is December twenty fifth, 25/12/2024 the twenty
    fifth of December."""
    month, day = int(m), int(d)
    if not (1 <= month <= 12 and 1 <= day <= 31):
        return f"{number(y)} {number(m)} {number(d)}"
    if day_first:
        return f"the {ordinal(str(day))} of {MONTHS[month - 1]} {_year_of_date(y)}"
    return f"{MONTHS[month - 1]} {ordinal(str(day))}, {_year_of_date(y)}"


def day_month(d: str, month: str, y: str | None) -> str:
    """ "26th May" -> the twenty sixth of May (a day written before its month)."""
    number_ = month_number(month)
    full = MONTHS[number_ - 1] if number_ else month
    return f"the {ordinal(str(int(d)))} of {full}" + (f" {year(y)}" if y else "")


def house_number(value: str) -> str:
    """An address number is said in pairs: 1428 -> fourteen twenty eight, 221 -> two twenty one."""
    if len(value) <= 2:
        return number(value)
    if len(value) == 4:
        return year(value)
    if len(value) == 5:
        return digits(value)
    head, tail = value[:-2], int(value[-2:])
    rest = (
        "hundred" if tail == 0 else ("oh " + DIGIT_WORDS[tail]) if tail < 10 else number(str(tail))
    )
    return f"{number(head)} {rest}"


def month_number(month: str) -> int | None:
    """ "Sept." -> 9, "march" -> 3 (a full name or its abbreviation); None for anything else."""
    wanted = month.rstrip(".").lower()
    return next(
        (i for i, name in enumerate(MONTHS, 1) if wanted and name.lower().startswith(wanted)), None
    )


def month_date(month: str, d: str, y: str | None) -> str:
    """ "March 5, 2024" -> March fifth, twenty twenty four (the month as written, abbreviations too)."""
    number_ = month_number(month)
    full = MONTHS[number_ - 1] if number_ else month
    return f"{full} {ordinal(str(int(d)))}" + (f", {year(y)}" if y else "")


def time(h: str, m: str | None, s: str | None, half: str | None = None) -> str:
    """14:05 -> fourteen oh five, 3:45 pm -> three forty five p m, 14:00 -> fourteen hundred,
    14:10:30 -> fourteen hours ten minutes and thirty seconds."""
    hour, minute = int(h), int(m or 0)
    out = number(str(hour))
    suffix = f" {half[0].lower()} m" if half else ""
    if minute == 0 and not s:
        if half:
            return out + suffix
        if hour == 0:
            return "midnight"
        return out + (" hundred" if hour > 12 else " o'clock")
    if s:  # 14:10:30 is a moment to the second: hours, minutes and seconds, each named

        def part(value: int, name: str) -> str:
            return f"{number(str(value))} {name}{'' if value == 1 else 's'}"

        return (
            f"{part(hour, 'hour')} {part(minute, 'minute')} and {part(int(s), 'second')}" + suffix
        )
    out += (" oh " + number(str(minute))) if minute < 10 else " " + number(str(minute))
    return out + suffix


def digits(text: str) -> str:
    return " ".join(DIGIT_WORDS[int(c)] for c in text if c.isdigit())


def phone(text: str) -> str:
    """Digit by digit, a short pause (comma) between the groups as they were written."""
    spoken = ", ".join(digits(g) for g in re.findall(r"\d+", text))
    return ("plus " if text.startswith("+") else "") + spoken


def version(prefix: str, parts: list[str]) -> str:
    spoken = " point ".join(number(p) for p in parts)
    return ("version " if prefix else "") + spoken


def currency(symbol: str, amount: str, scale: str | None = None) -> str:
    """$4.50 -> four dollars and fifty cents; $0.99 -> ninety nine cents;
    $2.5 million -> two point five million dollars."""
    one, many, sub_one, sub_many = CURRENCY.get(
        symbol if symbol in CURRENCY else symbol.lower(), (symbol, symbol, "", "")
    )
    amount = amount.replace(",", "")
    if scale:
        return f"{number(amount)} {SCALES[scale.lower()]} {many}"
    whole, _, frac = amount.partition(".")
    if len(frac) > 2 and not frac[2:].strip("0"):
        frac = frac[:2]  # $20.500 is twenty dollars fifty cents
    n = int(whole or "0")
    cents = int(frac[:2].ljust(2, "0")) if frac else 0
    if len(frac) > 2 or (frac and not sub_one):
        return f"{number(amount)} {many}"  # $0.125 or a currency without a sub-unit
    spoken_cents = f"{number(str(cents))} {sub_one if cents == 1 else sub_many}"
    if n == 0 and cents:
        return spoken_cents
    out = f"{number(str(n))} {one if n == 1 else many}"
    return out + f" and {spoken_cents}" if cents else out


SCALES = {
    "thousand": "thousand",
    "k": "thousand",
    "million": "million",
    "m": "million",
    "mn": "million",
    "billion": "billion",
    "bn": "billion",
    "b": "billion",
    "trillion": "trillion",
    "t": "trillion",
}


def temperature(value: str, unit: str) -> str:
    scale = {"°F": " Fahrenheit", "℉": " Fahrenheit", "°C": " Celsius", "℃": " Celsius"}.get(
        unit, ""
    )
    degrees = "degree" if value.lstrip("-") == "1" else "degrees"
    return f"{number(value)} {degrees}{scale}"


def percent(value: str) -> str:
    return number(value) + " percent"


def unit(value: str, name: str) -> str:
    one, many = UNITS.get(name, (name, name))
    return f"{number(value)} {one if value.lstrip('-') == '1' else many}"
