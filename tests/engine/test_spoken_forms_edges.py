"""Spoken forms on their edges: the boundaries of times, dates, currencies, temperatures and
units, worked out from how the forms are said (12:00 is "twelve o'clock" but 13:00 in 24-hour
time is "thirteen hundred"; 9:09 is "nine oh nine" but 9:10 "nine ten"; a 13th month is no
month, so the numbers are read as they are; $0.125 has no whole number of cents)."""

import pytest

from app.text.normalize import en, normalize, zh


@pytest.mark.parametrize(
    "args, spoken",
    [
        (("12", "00", None), "twelve o'clock"),
        (("13", "00", None), "thirteen hundred"),
        (("0", "00", None), "midnight"),
        (("3", "00", None, "PM"), "three p m"),
        (("9", "09", None), "nine oh nine"),
        (("9", "10", None), "nine ten"),
        (("14", "05", "30"), "fourteen hours five minutes and thirty seconds"),
        (("14", "05", "07", "am"), "fourteen hours five minutes and seven seconds a m"),
        (("1", "01", "01"), "one hour one minute and one second"),
    ],
)
def test_clock_times(args, spoken):
    assert en.time(*args) == spoken


@pytest.mark.parametrize(
    "ymd, spoken",
    [
        (("2024", "1", "31"), "January thirty first, twenty twenty four"),
        (("2024", "12", "1"), "December first, twenty twenty four"),
        (("2024", "13", "5"), "two thousand twenty four thirteen five"),  # no 13th month
        (("2024", "0", "5"), "two thousand twenty four zero five"),
        (("2024", "5", "32"), "two thousand twenty four five thirty two"),
        (("2024", "5", "0"), "two thousand twenty four five zero"),
    ],
)
def test_dates_only_with_a_real_month_and_day(ymd, spoken):
    assert en.date(*ymd) == spoken


@pytest.mark.parametrize(
    "text, spoken",
    [
        (
            "on 13/05/2024",
            "on the thirteenth of May twenty twenty four",
        ),  # 13 cannot be a month: day first, as written
        ("on 12/05/2024", "on December fifth, twenty twenty four"),
    ],
)
def test_a_slash_date_is_read_day_first_only_when_it_must_be(text, spoken):
    assert normalize(text, lang="en") == spoken


def test_month_names_as_written_and_abbreviated():
    assert en.month_date("Sept.", "5", None) == "September fifth"
    assert en.month_date("Smarch", "5", "2024") == "Smarch fifth, twenty twenty four"
    assert en.ordinal("1001000") == "one million one thousandth"


@pytest.mark.parametrize(
    "args, spoken",
    [
        (("$", "4.5"), "four dollars and fifty cents"),
        (("$", ".50"), "fifty cents"),
        (("$", "0.125"), "zero point one two five dollars"),  # no whole number of cents
        (("$", "1.01"), "one dollar and one cent"),
        (("Dollars", "5"), "five dollars"),  # a currency word in any case
        (("CHF", "5"), "five CHF"),  # unknown: kept as written
        (("CHF", "2.5"), "two point five CHF"),
        (("¢", "5.5"), "five point five cents"),  # no sub-unit of a cent
    ],
)
def test_currencies(args, spoken):
    assert en.currency(*args) == spoken


@pytest.mark.parametrize(
    "args, spoken",
    [
        (("1", "℉"), "one degree Fahrenheit"),
        (("-1", "℃"), "minus one degree Celsius"),
        (("2", "°C"), "two degrees Celsius"),
        (("1", "°"), "one degree"),
    ],
)
def test_temperatures(args, spoken):
    assert en.temperature(*args) == spoken


def test_units_and_signs():
    assert en.unit("-1", "kg") == "minus one kilogram"
    assert en.unit("2", "furlong") == "two furlong"  # unknown unit kept as written
    assert en.number("+5") == "five"
    assert en.number(".5") == "point five"  # as written (NeMo: $.506)


def test_chinese_digits_currency_and_phone_separators():
    assert zh.digits("1-2 3") == "一二三"
    assert zh.currency("CHF", "5") == "五CHF"
    assert zh.phone("138-0013 8000") == "幺三八，零零幺三，八零零零"
