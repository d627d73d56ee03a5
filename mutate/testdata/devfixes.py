import json
import re

URL = re.compile(r'^(\w+)://([^/?#]+)/([^?#]*)')


class VersionError(ValueError):
    pass


class Version:
    def __init__(self, major, minor=0):
        self.major = major
        self.minor = minor

    def bump(self):
        return Version(self.major + 1)

    def same(self, other):
        if not isinstance(other, Version):
            raise VersionError("not a version")
        return self.major == other.major


def parse(text, strict=False):
    if text.startswith("v"):
        raise VersionError("no prefix")
    m = re.match(r'(\d+)\.(\d+)', text)
    return Version(int(m.group(1)), int(m.group(2)))


def decode(data):
    s = data.decode("utf-8")
    return json.loads(s)


def dump(value):
    if value is None:
        return "None"
    return json.dumps(value, indent=2)


def show(value):
    return json.dumps(value)


def meter(d, l_bar, r_bar, l_bar_user, r_bar_user):
    l_bar, r_bar = l_bar.format(**d), r_bar.format(**d)
    return l_bar + r_bar


def number(x):
    try:
        return int(x)
    except ValueError:
        return None


class Reader:
    def error(self, msg):
        return ParseError(msg)

    def key(self, c):
        if c == "=":
            self.error("empty key")
        return c


def keyword_depth(word, level):
    if word == "CASE":
        return 0
    if word.upper() in ("IF", "FOR", "WHILE") and level:
        return 1
    return 0


def caret(target, minor, patch):
    if minor is None:
        return (target, target.next_major())
    if patch is None:
        return (target, target.next_patch())
    return (target, target.next_minor())


def strictly_n(iterable, n, too_short):
    it = iter(iterable)
    for i in range(n):
        try:
            item = next(it)
        except StopIteration:
            too_short()
        else:
            yield item


def findall(format, string, case_sensitive=False):
    p = Parser(format, case_sensitive=case_sensitive)
    return Parser(format).findall(string)


class TokenType(tuple):
    def __getattr__(self, name):
        new = TokenType(self + (name,))
        setattr(self, name, new)
        return new


def split_after(iterable, pred, maxsplit=-1):
    buf = []
    it = iter(iterable)
    for item in it:
        buf.append(item)
        if pred(item) and buf:
            yield buf
            if maxsplit == 1:
                yield list(it)
                return
            buf = []
            maxsplit -= 1
    if buf:
        yield buf
