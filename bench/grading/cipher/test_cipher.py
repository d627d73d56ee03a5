import pytest

from cipher import caesar, crack, xor_bytes

SHIFTS = [
    ("abc", 1, "bcd"),
    ("xyz", 3, "abc"),
    ("Hello, World!", 13, "Uryyb, Jbeyq!"),
    ("abc", -1, "zab"),
    ("abc", 27, "bcd"),
    ("", 5, ""),
]


@pytest.mark.parametrize("plain, shift, secret", SHIFTS)
def test_caesar(plain, shift, secret):
    assert caesar(plain, shift) == secret


@pytest.mark.parametrize("plain, shift, secret", SHIFTS)
def test_caesar_back(plain, shift, secret):
    assert caesar(secret, -shift) == plain


def test_xor():
    assert xor_bytes(b"\x00\x01\x02", b"\x01") == b"\x01\x00\x03"
    assert xor_bytes(b"abcd", b"ab") == b"\x00\x00\x02\x06"


def test_xor_round_trip():
    data = bytes(range(256))
    key = b"k3y!"
    assert xor_bytes(xor_bytes(data, key), key) == data
    assert isinstance(xor_bytes(data, key), bytes)


def test_xor_empty_key():
    with pytest.raises(ValueError):
        xor_bytes(b"abc", b"")


def test_crack():
    assert crack(caesar("attack at dawn", 7), "dawn") == (7,)
    assert crack("aaaa", "zz") == (1,)
    assert crack("xyz", "hello") == ()
