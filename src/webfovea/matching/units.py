"""The words around a number: scales (千, 万, million, k), units (吨, kg, 人次) and currencies
(USD, BDT, 元), each read to one canonical name so both sides can be compared.

A word that is not listed here is not a unit: "7 earthquakes" states a bare 7. Only listed
units can disagree, so an unknown word never rejects an answer.
"""

from __future__ import annotations

import re
from decimal import Decimal

SCALES: dict[str, Decimal] = {
    "千": Decimal(10) ** 3, "万": Decimal(10) ** 4, "十万": Decimal(10) ** 5,
    "百万": Decimal(10) ** 6, "千万": Decimal(10) ** 7, "亿": Decimal(10) ** 8,
    "万亿": Decimal(10) ** 12,
    "thousand": Decimal(10) ** 3, "k": Decimal(10) ** 3, "million": Decimal(10) ** 6,
    "mn": Decimal(10) ** 6, "mio": Decimal(10) ** 6, "m": Decimal(10) ** 6,
    "billion": Decimal(10) ** 9, "bn": Decimal(10) ** 9, "b": Decimal(10) ** 9,
    "trillion": Decimal(10) ** 12, "tn": Decimal(10) ** 12,
}
# Longest first, so 万亿 wins over 万; glued letters are case-sensitive ("5m" is metres).
SCALE_PATTERN = (r"(?:万亿|十万|百万|千万|[千万亿]|(?i:thousand|million|billion|trillion|mio)s?\b"
                 r"|(?:k|K|M|B|bn|Bn|mn|tn)(?![A-Za-z]))")

UNITS: dict[str, str] = {
    # mass, length, area, volume, energy, time
    "吨": "t", "t": "t", "ton": "t", "tons": "t", "tonne": "t", "tonnes": "t",
    "千克": "kg", "公斤": "kg", "kg": "kg", "克": "g", "g": "g", "斤": "jin",
    "lb": "lb", "lbs": "lb", "pounds": "lb",
    "公里": "km", "千米": "km", "km": "km", "米": "m", "metres": "m", "meters": "m",
    "厘米": "cm", "cm": "cm", "毫米": "mm", "mm": "mm", "mi": "mi", "miles": "mi", "mile": "mi",
    "平方公里": "km2", "km2": "km2", "km²": "km2", "公顷": "ha", "ha": "ha", "亩": "mu",
    "升": "l", "l": "l", "litres": "l", "liters": "l", "毫升": "ml", "ml": "ml",
    "kwh": "kWh", "千瓦时": "kWh", "度": "kWh", "mw": "MW", "兆瓦": "MW", "gw": "GW",
    "小时": "h", "hours": "h", "h": "h", "分钟": "min", "minutes": "min", "秒": "s",
    "seconds": "s", "天": "day", "days": "day",
    # people and events
    "人次": "person-times", "人": "people", "people": "people", "persons": "people",
    "户": "households", "households": "households",
    "°c": "°C", "℃": "°C", "°f": "°F",
}
CURRENCIES: dict[str, str] = {
    "$": "USD", "us$": "USD", "美元": "USD", "usd": "USD", "dollars": "USD",
    "€": "EUR", "欧元": "EUR", "eur": "EUR", "euros": "EUR", "£": "GBP", "英镑": "GBP",
    "gbp": "GBP", "¥": "CNY/JPY", "￥": "CNY/JPY", "元": "CNY", "人民币": "CNY", "rmb": "CNY",
    "cny": "CNY", "yuan": "CNY", "日元": "JPY", "jpy": "JPY", "yen": "JPY", "港元": "HKD",
    "港币": "HKD", "hkd": "HKD", "hk$": "HKD", "₹": "INR", "inr": "INR", "₩": "KRW", "krw": "KRW",
    "韩元": "KRW", "₽": "RUB", "rub": "RUB", "bdt": "BDT", "taka": "BDT", "৳": "BDT",
    "chf": "CHF", "cad": "CAD", "aud": "AUD", "sgd": "SGD", "twd": "TWD", "新台币": "TWD",
    "nt$": "TWD", "mnt": "MNT", "vnd": "VND", "thb": "THB", "myr": "MYR", "idr": "IDR",
    "php": "PHP", "brl": "BRL", "mxn": "MXN", "zar": "ZAR", "try": "TRY", "sek": "SEK",
    "nok": "NOK", "dkk": "DKK", "pln": "PLN", "czk": "CZK", "huf": "HUF", "nzd": "NZD",
}
_CJK_WORDS = sorted((w for w in [*UNITS, *CURRENCIES] if not w.isascii()), key=len, reverse=True)
# A unit or currency right after a number: CJK words, symbols, or one Latin word (with an
# optional "/kg" per-unit tail), e.g. "万吨", "USD/kg", "元/吨".
_AFTER = re.compile(r"\s?(?P<word>" + "|".join(map(re.escape, _CJK_WORDS))
                    + r"|[A-Za-z°$€£¥]+)(?:/(?P<per>[A-Za-z]+|[\u4e00-\u9fff]{1,2}))?")


def currency_of(word: str) -> str | None:
    return CURRENCIES.get(word.strip().lower())


def unit_of(word: str) -> str | None:
    return UNITS.get(word.strip().lower())


def read_after(text: str) -> tuple[str | None, str | None, int]:
    """(unit, currency, characters read) of what follows a number: a per-unit tail joins the
    unit ("USD/kg" is the currency USD and the unit /kg)."""
    m = _AFTER.match(text)
    if m is None:
        return None, None, 0
    word, per = m.group("word"), m.group("per")
    currency, unit = currency_of(word), unit_of(word)
    if currency is None and unit is None:
        return None, None, 0
    if per is not None:
        unit = f"{unit or ''}/{unit_of(per) or per.lower()}"
    return unit, currency, m.end()
