"""Chinese spoken forms (numbers as cn2an writes them, see zh_numerals)."""

from __future__ import annotations

from app.text.normalize.zh_numerals import an2cn

DIGITS = "零一二三四五六七八九"
PHONE_DIGITS = "零幺二三四五六七八九"  # 1 is read 幺 in phone numbers
UNITS = {
    "km/h": "公里每小时",
    "km": "公里",
    "kg": "千克",
    "mg": "毫克",
    "g": "克",
    "cm": "厘米",
    "mm": "毫米",
    "m": "米",
    "ml": "毫升",
    "mL": "毫升",
    "L": "升",
    "l": "升",
    "h": "小时",
    "min": "分钟",
    "s": "秒",
    "ms": "毫秒",
    "Hz": "赫兹",
    "kHz": "千赫兹",
    "GHz": "吉赫兹",
    "GB": "GB",
    "MB": "MB",
    "KB": "KB",
    "TB": "TB",
    "kW": "千瓦",
    "W": "瓦",
    "V": "伏",
    "kWh": "千瓦时",
    "mAh": "毫安时",
    "lb": "磅",
    "lbs": "磅",
    "oz": "盎司",
    "ft": "英尺",
    "mi": "英里",
    "m²": "平方米",
    "m2": "平方米",
    "km2": "平方公里",
    "cm2": "平方厘米",
    "㎡": "平方米",
    "km²": "平方公里",
    "m³": "立方米",
    "cm²": "平方厘米",
    "mins": "分钟",
    "secs": "秒",
    "hr": "小时",
    "hrs": "小时",
    "kgs": "千克",
    "kms": "公里",
    "sec": "秒",
    "wk": "周",
    "wks": "周",
    "mo": "个月",
    "mos": "个月",
    "yr": "年",
    "yrs": "年",
    "mm²": "平方毫米",
    "km³": "立方千米",
    "cm³": "立方厘米",
    "m/s": "米每秒",
}
CURRENCY = {
    "¥": "元",
    "￥": "元",
    "$": "美元",
    "€": "欧元",
    "£": "英镑",
    "USD": "美元",
    "RMB": "人民币",
    "CNY": "人民币",
    "EUR": "欧元",
    "GBP": "英镑",
    "JPY": "日元",
    "₹": "卢比",
    "INR": "卢比",
    "Rs": "卢比",
    "₩": "韩元",
    "KRW": "韩元",
}


# Before these a lone 2 is said 两 (两个, 两本, 两万), not 二; 第2个 stays 第二个.
MEASURE_WORDS = (
    "个",
    "位",
    "名",
    "人",
    "只",
    "条",
    "张",
    "本",
    "件",
    "次",
    "遍",
    "回",
    "天",
    "年",
    "岁",
    "周",
    "倍",
    "种",
    "样",
    "项",
    "份",
    "杯",
    "碗",
    "瓶",
    "双",
    "对",
    "台",
    "辆",
    "架",
    "家",
    "间",
    "篇",
    "首",
    "部",
    "套",
    "颗",
    "块",
    "元",
    "角",
    "毛",
    "斤",
    "公斤",
    "千克",
    "克",
    "吨",
    "米",
    "公里",
    "小时",
    "分钟",
    "秒",
    "点",
    "句",
    "段",
    "头",
    "匹",
    "棵",
    "朵",
    "片",
    "支",
    "把",
    "根",
    "盒",
    "包",
    "袋",
    "箱",
    "封",
    "所",
    "座",
    "节",
    "场",
    "千",
    "万",
    "亿",
)
NOT_MEASURE = ("年级",)  # 2年级 is the second grade
# cn2an writes 二千, 二万, 二亿; Mandarin says 两 before these when the number starts with 2.
LEADING_TWO = ("二千", "二万", "二亿")


def number(text: str) -> str:
    text = text.replace(",", "")
    spoken = an2cn(text)
    if spoken.startswith(LEADING_TWO):
        spoken = "两" + spoken[1:]
    return spoken


def counted(value: str, following: str, preceding: str = "") -> str:
    """A number in running text: a lone 2 before a measure word is 两, unless it is an ordinal."""
    if (
        value == "2"
        and following.startswith(MEASURE_WORDS)
        and not following.startswith(NOT_MEASURE)
        and not preceding.endswith("第")
    ):
        return "两"
    return number(value)


def amount(value: str) -> str:
    """A quantity with its unit or currency: 2 of anything is 两 (两公里, 两美元). Zeros that
    end a decimal are not said (￥1,299.00 is 一千二百九十九元, 4.50元 四点五元)."""
    if "." in value:
        value = value.rstrip("0").rstrip(".")
    return "两" if value == "2" else number(value)


def digits(text: str, table: str = DIGITS) -> str:
    return "".join(table[int(c)] if c.isdigit() else "" for c in text)


def year(text: str) -> str:
    return digits(text)


def date(y: str | None, m: str, d: str) -> str:
    """2024, 5, 5 -> 二零二四年五月五日; without a year, 五月五日."""
    return (f"{year(y)}年" if y else "") + f"{number(str(int(m)))}月{number(str(int(d)))}日"


def _clock_field(value: int) -> str:
    """Minutes and seconds as a clock says them: 05 is 零五, 00 is 零."""
    if value == 0:
        return "零"
    return "零" + number(str(value)) if value < 10 else number(str(value))


def time(h: str, m: str, s: str | None, half: str | None = None) -> str:
    """HH:MM[:SS] -> 十四点三十分十五秒; 2 o'clock is 两点; whole hours are 整. With am/pm
    (`half` 'a' or 'p', "3:30 pm" in Chinese text): 下午三点三十分, 上午九点整; 12 pm is 中午, 12 am 凌晨."""
    hour, minute, second = int(h), int(m), int(s) if s else 0
    out = ("两" if hour == 2 else number(str(hour))) + "点"
    if half:
        pm = half[0].lower() == "p"
        out = ("中午" if pm else "凌晨") + out if hour == 12 else ("下午" if pm else "上午") + out
    if minute == 0 and second == 0:
        return out + "整"
    out += _clock_field(minute) + "分"
    if second:
        out += _clock_field(second) + "秒"
    return out


def phone(text: str) -> str:
    out = text.replace("+", "加")
    return "".join(PHONE_DIGITS[int(c)] if c.isdigit() else ("，" if c in "- " else c) for c in out)


def version(prefix: str, parts: list[str]) -> str:
    spoken = "点".join(number(p) for p in parts)
    return ("V" if prefix else "") + spoken


def currency(symbol: str, value: str) -> str:
    return amount(value) + CURRENCY.get(symbol, symbol)


def temperature(value: str, unit: str) -> str:
    scale = "华氏度" if unit in ("°F", "℉") else "摄氏度"
    if value.startswith("-"):
        return "零下" + number(value[1:]) + scale
    return number(value) + scale


def percent(value: str) -> str:
    if value.startswith("-"):
        return "负百分之" + number(value[1:])
    return "百分之" + number(value)


# A speed is said per time first: 10km/h is 每小时十公里 (tests/engine/test_numbers_zh.py).
PER_UNITS = {"km/h": ("小时", "公里"), "m/s": ("秒", "米")}


def unit(value: str, name: str) -> str:
    if name in PER_UNITS:
        per, base = PER_UNITS[name]
        return "每" + per + amount(value) + base
    return amount(value) + UNITS.get(name, name)


def ordinal(value: str) -> str:
    return "第" + number(value)
