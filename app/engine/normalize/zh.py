"""Chinese spoken forms (cn2an for the numbers)."""

from __future__ import annotations

DIGITS = "零一二三四五六七八九"
PHONE_DIGITS = "零幺二三四五六七八九"   # 1 is read 幺 in phone numbers
UNITS = {
    "km/h": "公里每小时", "km": "公里", "kg": "千克", "mg": "毫克", "g": "克", "cm": "厘米",
    "mm": "毫米", "m": "米", "ml": "毫升", "mL": "毫升", "L": "升", "l": "升", "h": "小时",
    "min": "分钟", "s": "秒", "ms": "毫秒", "Hz": "赫兹", "kHz": "千赫兹", "GHz": "吉赫兹",
    "GB": "GB", "MB": "MB", "KB": "KB", "TB": "TB", "kW": "千瓦", "W": "瓦", "V": "伏",
}
CURRENCY = {"¥": "元", "￥": "元", "$": "美元", "€": "欧元", "£": "英镑",
            "USD": "美元", "RMB": "元", "CNY": "元", "EUR": "欧元"}


def number(text: str) -> str:
    import cn2an

    text = text.replace(",", "")
    return cn2an.an2cn(text, "low")


def digits(text: str, table: str = DIGITS) -> str:
    return "".join(table[int(c)] if c.isdigit() else "" for c in text)


def year(text: str) -> str:
    return digits(text)


def date(y: str, m: str, d: str) -> str:
    return f"{year(y)}年{number(str(int(m)))}月{number(str(int(d)))}日"


def time(h: str, m: str, s: str | None) -> str:
    out = f"{number(str(int(h)))}点"
    minute = int(m)
    if minute == 0 and not s:
        return out + "整"
    out += ("零" + number(str(minute)) if minute < 10 else number(str(minute))) + "分"
    if s:
        out += number(str(int(s))) + "秒"
    return out


def phone(text: str) -> str:
    out = text.replace("+", "加")
    return "".join(PHONE_DIGITS[int(c)] if c.isdigit() else ("，" if c in "- " else c) for c in out)


def version(prefix: str, parts: list[str]) -> str:
    spoken = "点".join(number(p) for p in parts)
    return ("V" if prefix else "") + spoken


def currency(symbol: str, amount: str) -> str:
    return number(amount) + CURRENCY.get(symbol, symbol)


def temperature(value: str, unit: str) -> str:
    scale = "华氏度" if unit in ("°F", "℉") else "摄氏度"
    if value.startswith("-"):
        return "零下" + number(value[1:]) + scale
    return number(value) + scale


def percent(value: str) -> str:
    if value.startswith("-"):
        return "负百分之" + number(value[1:])
    return "百分之" + number(value)


def unit(value: str, name: str) -> str:
    return number(value) + UNITS.get(name, name)


def ordinal(value: str) -> str:
    return "第" + number(value)
