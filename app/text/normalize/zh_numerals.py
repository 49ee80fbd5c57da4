"""Arabic numerals to Chinese in cn2an's "low" style (一百零一, 十二万, 三点一四).

cn2an builds three converters and parses YAML when it is imported (about a second), which
alone broke `chattts-studio normalize`'s budget; this is the one function of it we use, and a
test checks it against cn2an over random numbers.
"""

from __future__ import annotations

DIGITS = "零一二三四五六七八九"
MAX_DIGITS = 16  # as cn2an: beyond 万亿 there is no customary unit


def _section(n: int) -> str:
    """0 < n < 10000, with 零 for inner zeros: 1010 -> 一千零一十."""
    out, gap = "", False
    for value, unit in ((1000, "千"), (100, "百"), (10, "十"), (1, "")):
        d = n // value % 10
        if d:
            out += ("零" if gap else "") + DIGITS[d] + unit
            gap = False
        elif out:
            gap = True
    return out


def _below_yi(n: int) -> str:
    """0 < n < 10**8: 一千二百三十四万零五十六."""
    high, low = divmod(n, 10000)
    out = _section(high) + "万" if high else ""
    if low:
        out += ("零" if high and low < 1000 else "") + _section(low)
    return out


def integer(n: int) -> str:
    """亿 groups counted in 万 above it, as people say them: 二百五十九万七千三百零七亿."""
    if n == 0:
        return "零"
    high, low = divmod(n, 10**8)
    out = _below_yi(high) + "亿" if high else ""
    if low:
        out += ("零" if high and low < 10**7 else "") + _below_yi(low)
    return out[1:] if out.startswith("一十") else out


def an2cn(text: str) -> str:
    """'-1234.50' -> 负一千二百三十四点五零; digits past the decimal point one by one."""
    negative = text.startswith("-")
    whole, _, frac = text.lstrip("+-").partition(".")
    if len(whole) > MAX_DIGITS:
        spoken = "".join(DIGITS[int(c)] for c in whole)
    else:
        spoken = integer(int(whole or "0"))
    if frac:
        spoken += "点" + "".join(DIGITS[int(c)] for c in frac)
    return ("负" if negative else "") + spoken
