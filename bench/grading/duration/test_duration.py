import pytest

from duration import format_duration, parse

GOOD = {
    "1h30m": 5400,
    "45s": 45,
    "2d 5s": 172805,
    "1d1h1m1s": 90061,
    "90m": 5400,
    "0s": 0,
}


@pytest.mark.parametrize("text", sorted(GOOD))
def test_parse(text):
    assert parse(text) == GOOD[text]


@pytest.mark.parametrize("text", ["", "5", "h", "1x", "1m1h", "1h1h", "1h 30", "-5s", "1.5h"])
def test_parse_bad(text):
    with pytest.raises(ValueError):
        parse(text)


@pytest.mark.parametrize("seconds, text", [(0, "0s"), (59, "59s"), (3600, "1h"), (90061, "1d1h1m1s"), (86460, "1d1m")])
def test_format(seconds, text):
    assert format_duration(seconds) == text


def test_round_trip():
    for s in (1, 61, 3599, 3601, 100000):
        assert parse(format_duration(s)) == s


def test_format_negative():
    with pytest.raises(ValueError):
        format_duration(-1)
