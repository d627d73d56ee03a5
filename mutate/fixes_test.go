package mutate

import (
	"slices"
	"testing"

	"repair/program"
)

// devFixes are fixes developers made to real bugs (issue 28), in small
// programs modelled on them: each must be one edit of its operator.
var devFixes = []struct {
	name, op string
	src      string
	want     string // the fixed program
}{
	// A character inside a string literal, often a regular expression.
	{"class gets &", "string-char",
		"import re\n\ndef pairs(q):\n    return re.findall(r\"([^=]+)=([^;]*)\", q)\n",
		"import re\n\ndef pairs(q):\n    return re.findall(r\"([^=]+)=([^&;]*)\", q)\n"},
	{"anchor into word boundary", "string-char",
		"import re\n\ndef fix(script):\n    return re.sub('^mkdir (.*)', 'mkdir -p \\\\1', script)\n",
		"import re\n\ndef fix(script):\n    return re.sub('\\\\bmkdir (.*)', 'mkdir -p \\\\1', script)\n"},
	{"class into negated delimiter", "string-char",
		"import re\n\ndef links(html):\n    return re.findall(r'href=\"([a-z]+)\"', html)\n",
		"import re\n\ndef links(html):\n    return re.findall(r'href=\"([^\"]+)\"', html)\n"},
	{"character deleted", "string-char",
		"def vowel(ch):\n    return ch in \"aeiouyAEIOUYx\"\n",
		"def vowel(ch):\n    return ch in \"aeiouyAEIOUY\"\n"},
	{"missing vowel", "string-char",
		"def vowel(ch):\n    return ch in \"aeio\"\n",
		"def vowel(ch):\n    return ch in \"aeiou\"\n"},

	// A default value for a lookup that raises on a missing key.
	{"pop with a default", "default-arg",
		"def invalidate(cache, key):\n    cache.pop(key)\n",
		"def invalidate(cache, key):\n    cache.pop(key, None)\n"},
	{"getattr with a default", "default-arg",
		"def size(obj):\n    return getattr(obj, \"size\")\n",
		"def size(obj):\n    return getattr(obj, \"size\", None)\n"},
	{"next with a default", "default-arg",
		"def first(xs):\n    return next(iter(xs))\n",
		"def first(xs):\n    return next(iter(xs), None)\n"},

	// An assignment to an item that meant to add one.
	{"item into append", "item-call",
		"def merge(self, tmp):\n    self.lists[0] = tmp\n",
		"def merge(self, tmp):\n    self.lists.append(tmp)\n"},

	// A literal into a constant of an imported module.
	{"os.pathsep", "module-const",
		"import os\n\ndef path(dirs):\n    return ':'.join(dirs)\n",
		"import os\n\ndef path(dirs):\n    return os.pathsep.join(dirs)\n"},
	{"os.sep", "module-const",
		"import os.path\n\ndef join(a, b):\n    return a + '/' + b\n",
		"import os.path\n\ndef join(a, b):\n    return a + os.sep + b\n"},
	{"string.ascii_letters", "module-const",
		"import string\n\ndef word(s):\n    return all(c in 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXY' for c in s)\n",
		"import string\n\ndef word(s):\n    return all(c in string.ascii_letters for c in s)\n"},
	{"string.digits", "module-const",
		"from string import digits\n\ndef number(s):\n    return all(c in \"0123456789\" for c in s)\n",
		"from string import digits\n\ndef number(s):\n    return all(c in digits for c in s)\n"},
	{"math.pi", "module-const",
		"import math\n\ndef area(r):\n    return 3.14159 * r * r\n",
		"import math\n\ndef area(r):\n    return math.pi * r * r\n"},
	{"sys.maxsize", "module-const",
		"import sys as system\n\ndef least(xs):\n    best = 2147483647\n    return min([best] + xs)\n",
		"import sys as system\n\ndef least(xs):\n    best = system.maxsize\n    return min([best] + xs)\n"},

	// A name into a similar name in scope; one name renamed at every use.
	{"l_bar into l_bar_user", "similar-name",
		"def meter(n, l_bar, r_bar, l_bar_user=None, r_bar_user=None):\n    return l_bar + str(n) + r_bar\n",
		"def meter(n, l_bar, r_bar, l_bar_user=None, r_bar_user=None):\n    return l_bar_user + str(n) + r_bar\n"},
	{"r_bar into r_bar_user", "similar-name",
		"def meter(n, l_bar, r_bar, l_bar_user=None, r_bar_user=None):\n    return l_bar + str(n) + r_bar\n",
		"def meter(n, l_bar, r_bar, l_bar_user=None, r_bar_user=None):\n    return l_bar + str(n) + r_bar_user\n"},
	{"rename in a call", "rename",
		"def meter(n, total, l_bar, l_bar_user):\n    return format_meter(l_bar, n, total, l_bar)\n",
		"def meter(n, total, l_bar, l_bar_user):\n    return format_meter(l_bar_user, n, total, l_bar_user)\n"},
	{"rename in a function", "rename",
		"def meter(n, r_bar, r_bar_user):\n    left = r_bar * n\n    if n:\n        left += r_bar\n    return left\n",
		"def meter(n, r_bar, r_bar_user):\n    left = r_bar_user * n\n    if n:\n        left += r_bar_user\n    return left\n"},

	{"one name wrapped at every read", "rename",
		"def size(n, gnu):\n    if n < 1000:\n        return f\"{n}B\" if gnu else f\"{n} Bytes\"\n    return f\"{n / 1000:.1f} kB\"\n",
		"def size(n, gnu):\n    if n < 1000:\n        return f\"{int(n)}B\" if gnu else f\"{int(n)} Bytes\"\n    return f\"{n / 1000:.1f} kB\"\n"},

	// A callable used where its call was meant.
	{"not str_op into its call", "add-call",
		"def match(op, negate):\n    str_op = OPS[op]\n    if negate:\n        return lambda attr, value: not str_op\n    return str_op\n",
		"def match(op, negate):\n    str_op = OPS[op]\n    if negate:\n        return lambda attr, value: not str_op(attr, value)\n    return str_op\n"},

	// Statements wrapped in a new guard; an early exit under one.
	{"if upload_date is not None", "guard",
		"def upload(info):\n    upload_date = info.get('date')\n    return unified_strdate(upload_date)\n",
		"def upload(info):\n    upload_date = info.get('date')\n    if upload_date is not None:\n        return unified_strdate(upload_date)\n"},
	{"if self._cached around three statements", "guard",
		"class Cache:\n    def reset(self):\n        self._store.clear()\n        self._hits = 0\n        self._misses = 0\n        self._log.append(self._cached)\n",
		"class Cache:\n    def reset(self):\n        if self._cached:\n            self._store.clear()\n            self._hits = 0\n            self._misses = 0\n        self._log.append(self._cached)\n"},
	{"if e1 == e2", "guard",
		"def common(s1, s2):\n    ret = set()\n    for e1 in s1:\n        for e2 in s2:\n            ret.add(e1)\n    return ret\n",
		"def common(s1, s2):\n    ret = set()\n    for e1 in s1:\n        for e2 in s2:\n            if e1 == e2:\n                ret.add(e1)\n    return ret\n"},
	{"if node is None: return", "early-exit",
		"def depth(node):\n    return 1 + max(depth(node.left), depth(node.right))\n",
		"def depth(node):\n    if node is None: return\n    return 1 + max(depth(node.left), depth(node.right))\n"},
	{"if not items: return \"\" (a string function's empty value)", "early-exit",
		"def natural_list(items):\n    if len(items) == 1:\n        return str(items[0])\n    elif len(items) == 2:\n        return f\"{items[0]} and {items[1]}\"\n    else:\n        return \", \".join(items)\n",
		"def natural_list(items):\n    if not items: return \"\"\n    if len(items) == 1:\n        return str(items[0])\n    elif len(items) == 2:\n        return f\"{items[0]} and {items[1]}\"\n    else:\n        return \", \".join(items)\n"},
	{"if not words: return words (the input handed back)", "early-exit",
		"def capitalize_all(words):\n    return [w.capitalize() for w in words[0].split()]\n",
		"def capitalize_all(words):\n    if not words: return words\n    return [w.capitalize() for w in words[0].split()]\n"},
	{"if w is None: continue", "early-exit",
		"def total(ws):\n    n = 0\n    for w in ws:\n        n += len(w)\n    return n\n",
		"def total(ws):\n    n = 0\n    for w in ws:\n        if w is None: continue\n        n += len(w)\n    return n\n"},

	// A value chosen by a conditional expression.
	{"x if self.iterable else self.total", "cond-expr",
		"class Bar:\n    def size(self, x):\n        self.log(self.iterable)\n        return self.total\n",
		"class Bar:\n    def size(self, x):\n        self.log(self.iterable)\n        return x if self.iterable else self.total\n"},
	{"v if not isinstance(v, bool) else ...", "cond-expr",
		"def encode(v, default):\n    if isinstance(v, bool):\n        log(v)\n    return v\n",
		"def encode(v, default):\n    if isinstance(v, bool):\n        log(v)\n    return v if not isinstance(v, bool) else default\n"},

	{"a + b into a if prefer_a else b", "cond-expr",
		"def pick(a, b, prefer_a):\n    return a + b\n",
		"def pick(a, b, prefer_a):\n    return a if prefer_a else b\n"},
	{"first - last into last if reverse else first", "cond-expr",
		"def span(first, last, reverse):\n    size = first - last\n    return size\n",
		"def span(first, last, reverse):\n    size = last if reverse else first\n    return size\n"},

	// wrap and slice, widened.
	{"sorted(list(set(l)))", "wrap",
		"def uniq(l):\n    return sorted(l)\n",
		"def uniq(l):\n    return sorted(list(set(l)))\n"},
	{"set(s0) == set(s1)", "wrap",
		"def same(s0, s1):\n    return s0 == s1\n",
		"def same(s0, s1):\n    return set(s0) == set(s1)\n"},
	{"a call into its argument", "wrap",
		"def walk(x):\n    for c in x:\n        yield flatten(c)\n",
		"def walk(x):\n    for c in x:\n        yield c\n"},
	{"a value formatted in an f-string", "wrap",
		"def size(n):\n    return f\"{n} Byte\"\n",
		"def size(n):\n    return f\"{int(n)} Byte\"\n"},
	{"a field with a format spec", "wrap",
		"def mixed(whole, num, den):\n    return f\"{whole:.0f} {num:.0f}/{den:.0f}\"\n",
		"def mixed(whole, num, den):\n    return f\"{whole:.0f} {abs(num):.0f}/{den:.0f}\"\n"},
	{"[src] into list(src)", "wrap",
		"def chunks(src, n):\n    if n == 0:\n        yield [src]\n",
		"def chunks(src, n):\n    if n == 0:\n        yield list(src)\n"},
	{"a list display sliced", "slice",
		"def tail(a, b, c):\n    return [a, b, c]\n",
		"def tail(a, b, c):\n    return [a, b, c][1:]\n"},
	{"a comprehension sliced", "slice",
		"def doubles(xs):\n    return [x * 2 for x in xs]\n",
		"def doubles(xs):\n    return [x * 2 for x in xs][1:]\n"},
	{"a call the file subscripts elsewhere, sliced", "slice",
		"def key(v):\n    return hash(v.to_tuple())\n\ndef older(v, w):\n    return v.to_tuple()[:3] < w.to_tuple()[:3]\n",
		"def key(v):\n    return hash(v.to_tuple()[:-1])\n\ndef older(v, w):\n    return v.to_tuple()[:3] < w.to_tuple()[:3]\n"},

	// Regular expressions, edited by their structure.
	{"a class loses a character", "regex",
		"import re\n\nURL = re.compile(r'^(\\w+)://([^/?#]+)/([^?#]*)')\n",
		"import re\n\nURL = re.compile(r'^(\\w+)://([^?#]+)/([^?#]*)')\n"},
	{"a class gains a character", "regex",
		"import re\n\ndef host(url):\n    return re.match(r'([^?#]+)', url).group(1)\n",
		"import re\n\ndef host(url):\n    return re.match(r'([^/?#]+)', url).group(1)\n"},
	{"a class into the negated delimiter", "regex",
		"import re\n\ndef links(html):\n    return re.findall(r'href=\"([a-z]+)\"', html)\n",
		"import re\n\ndef links(html):\n    return re.findall(r'href=\"([^\"]+)\"', html)\n"},
	{"an anchor into a word boundary", "regex",
		"import re\n\ndef fix(script):\n    return re.sub('^mkdir (.*)', 'mkdir -p \\\\1', script)\n",
		"import re\n\ndef fix(script):\n    return re.sub('\\\\bmkdir (.*)', 'mkdir -p \\\\1', script)\n"},
	{"a missing ?", "regex",
		"import re\n\ndef version(s):\n    return re.match(r'(\\d+)\\.(\\d+)(\\.\\d+)', s)\n",
		"import re\n\ndef version(s):\n    return re.match(r'(\\d+)\\.(\\d+)(\\.\\d+)?', s)\n"},
	{"+ into *", "regex",
		"import re\n\ndef words(s):\n    return re.findall(r'[a-z]+-[a-z]+', s)\n",
		"import re\n\ndef words(s):\n    return re.findall(r'[a-z]+-[a-z]*', s)\n"},
	{"a $ added", "regex",
		"import re\n\ndef number(s):\n    return re.match(r'\\d+', s) is not None\n",
		"import re\n\ndef number(s):\n    return re.match(r'\\d+$', s) is not None\n"},
	{"a dot escaped", "regex",
		"import re\n\ndef split_ext(s):\n    return re.split(r'.', s)\n",
		"import re\n\ndef split_ext(s):\n    return re.split(r'\\.', s)\n"},
	{"a count relaxed, in a table of patterns", "regex",
		"import re\n\nFORMATS = {\"%S\": \"[0-9]{2}\", \"%f\": \"[0-9]{6}\"}\n\ndef compile(fmt):\n    return re.compile(FORMATS[fmt])\n",
		"import re\n\nFORMATS = {\"%S\": \"[0-9]{2}\", \"%f\": \"[0-9]{1,6}\"}\n\ndef compile(fmt):\n    return re.compile(FORMATS[fmt])\n"},
	{"+ into *, in a pattern built before it is compiled", "regex",
		"import re\n\ndef number(prefix):\n    return re.compile(prefix + r'\\d+\\.\\d+')\n",
		"import re\n\ndef number(prefix):\n    return re.compile(prefix + r'\\d*\\.\\d+')\n"},
	{"two branches swapped", "regex",
		"import re\n\ndef unit(s):\n    return re.match(r'(k|kB)$', s)\n",
		"import re\n\ndef unit(s):\n    return re.match(r'(kB|k)$', s)\n"},

	// A check that raises; a try that raises the module's error.
	{"if not version: raise ValueError", "raise-guard",
		"def parse(version):\n    if version.startswith('v'):\n        raise ValueError('no prefix')\n    return version.split('.')\n",
		"def parse(version):\n    if version.startswith('v'):\n        raise ValueError('no prefix')\n    if not version: raise ValueError('no prefix')\n    return version.split('.')\n"},
	{"if x is None: raise Error", "raise-guard",
		"class Error(Exception):\n    pass\n\ndef load(data, key):\n    if key not in data:\n        raise Error\n    return data[key] + 1\n",
		"class Error(Exception):\n    pass\n\ndef load(data, key):\n    if data is None: raise Error\n    if key not in data:\n        raise Error\n    return data[key] + 1\n"},
	{"try: decode except UnicodeError: raise the module's error", "try-except",
		"class DecodeError(Exception):\n    pass\n\ndef text(data):\n    if not data:\n        raise DecodeError('empty')\n    s = data.decode('ascii')\n    return s\n",
		"class DecodeError(Exception):\n    pass\n\ndef text(data):\n    if not data:\n        raise DecodeError('empty')\n    try:\n        s = data.decode('ascii')\n    except UnicodeError as exc:\n        raise DecodeError(str(exc)) from exc\n    return s\n"},
	{"a raise forgotten before a call that makes the error", "raise-call",
		"class ParseError(Exception):\n    pass\n\nclass Parser:\n    def parse_error(self, msg):\n        return ParseError(msg)\n\n    def key(self, c):\n        if c == '=':\n            self.parse_error('empty key')\n        return c\n",
		"class ParseError(Exception):\n    pass\n\nclass Parser:\n    def parse_error(self, msg):\n        return ParseError(msg)\n\n    def key(self, c):\n        if c == '=':\n            raise self.parse_error('empty key')\n        return c\n"},
	{"a raise forgotten before the file's own error", "raise-call",
		"class Invalid(Exception):\n    pass\n\ndef check(n):\n    if n < 0:\n        raise Invalid(n)\n    if n > 9:\n        Invalid(n)\n    return n\n",
		"class Invalid(Exception):\n    pass\n\ndef check(n):\n    if n < 0:\n        raise Invalid(n)\n    if n > 9:\n        raise Invalid(n)\n    return n\n"},
	{"a normalising call the file applies beside", "same-call",
		"def group(tokens):\n    has_table = has_as = False\n    for tok in tokens:\n        if tok.value.upper() == 'TABLE':\n            has_table = True\n        if tok.value == 'AS':\n            has_as = True\n    return has_table and not has_as\n",
		"def group(tokens):\n    has_table = has_as = False\n    for tok in tokens:\n        if tok.value.upper() == 'TABLE':\n            has_table = True\n        if tok.value.upper() == 'AS':\n            has_as = True\n    return has_table and not has_as\n"},
	{"a value passed through the class's own method", "same-call",
		"class Handler:\n    def _build_name(self, full_name):\n        return full_name.split(':')[-1]\n\n    def start(self, full_name, attrs):\n        name = self._build_name(full_name)\n        return name, [('@' + key, value) for key, value in attrs.items()]\n",
		"class Handler:\n    def _build_name(self, full_name):\n        return full_name.split(':')[-1]\n\n    def start(self, full_name, attrs):\n        name = self._build_name(full_name)\n        return name, [('@' + self._build_name(key), value) for key, value in attrs.items()]\n"},
	{"next_patch for next_minor", "attr-alike",
		"def caret(target, minor, patch):\n    if minor is None:\n        return (target, target.next_major())\n    if patch is None:\n        return (target, target.next_patch())\n    return (target, target.next_minor())\n",
		"def caret(target, minor, patch):\n    if minor is None:\n        return (target, target.next_major())\n    if patch is None:\n        return (target, target.next_minor())\n    return (target, target.next_minor())\n"},
	{"a keyword missing from a tuple", "add-entry",
		"def depth(unified, level):\n    if unified == 'CASE' and level:\n        return 0\n    if unified in ('IF', 'FOR', 'WHILE') and level > 0:\n        return 1\n    return 0\n",
		"def depth(unified, level):\n    if unified == 'CASE' and level:\n        return 0\n    if unified in ('IF', 'FOR', 'WHILE', 'CASE') and level > 0:\n        return 1\n    return 0\n"},
	{"a character missing from a set", "add-entry",
		"ESCAPED = {'n': '\\n', '\\\\': '\\\\'}\nBASIC = {'\"'}\n\ndef needs_escape(c):\n    return c in BASIC or c in ESCAPED\n",
		"ESCAPED = {'n': '\\n', '\\\\': '\\\\'}\nBASIC = {'\"', '\\\\'}\n\ndef needs_escape(c):\n    return c in BASIC or c in ESCAPED\n"},
	{"a try removed", "try-except",
		"def number(s):\n    try:\n        return int(s)\n    except ValueError:\n        return None\n",
		"def number(s):\n    return int(s)\n"},

	// Every name of a statement renamed alike.
	{"l_bar and r_bar into their _user forms", "rename-alike",
		"def meter(d, l_bar, r_bar, l_bar_user, r_bar_user):\n    l_bar, r_bar = l_bar.format(**d), r_bar.format(**d)\n    return l_bar + r_bar\n",
		"def meter(d, l_bar, r_bar, l_bar_user, r_bar_user):\n    l_bar, r_bar = l_bar_user.format(**d), r_bar_user.format(**d)\n    return l_bar + r_bar\n"},

	// A new argument.
	{"a keyword of the callee's def", "add-arg",
		"def fmt(n, width=0, sign=False):\n    return str(n).rjust(width)\n\ndef table(rows, width):\n    return [fmt(r) for r in rows]\n",
		"def fmt(n, width=0, sign=False):\n    return str(n).rjust(width)\n\ndef table(rows, width):\n    return [fmt(r, width=width) for r in rows]\n"},
	{"an argument other calls pass", "add-arg",
		"import json\n\ndef save(x):\n    return json.dumps(x, indent=2)\n\ndef show(x):\n    return json.dumps(x)\n",
		"import json\n\ndef save(x):\n    return json.dumps(x, indent=2)\n\ndef show(x):\n    return json.dumps(x, indent=2)\n"},
	{"decode with an encoding", "add-arg",
		"def text(data):\n    return data.decode()\n",
		"def text(data):\n    return data.decode(\"utf-8\")\n"},

	// A string constant of the file's domain.
	{"utf-8 into latin1", "domain-string",
		"def text(data):\n    return data.decode('utf-8')\n",
		"def text(data):\n    return data.decode('latin1')\n"},
	{"None into null", "domain-string",
		"def literal(v):\n    if v is None:\n        return \"None\"\n    return str(v)\n",
		"def literal(v):\n    if v is None:\n        return \"null\"\n    return str(v)\n"},

	// The class's own name into type(self); a tuple of types.
	{"Version into type(self)", "type-self",
		"class Version:\n    def __init__(self, major):\n        self.major = major\n\n    def bump(self):\n        return Version(self.major + 1)\n",
		"class Version:\n    def __init__(self, major):\n        self.major = major\n\n    def bump(self):\n        return type(self)(self.major + 1)\n"},
	{"Version into type(self) in a decorator's wrapper", "type-self",
		"class Version:\n    pass\n\ndef comparator(op):\n    def wrapper(self, other):\n        if not isinstance(other, (Version, tuple)):\n            return NotImplemented\n        return op(self, other)\n    return wrapper\n",
		"class Version:\n    pass\n\ndef comparator(op):\n    def wrapper(self, other):\n        if not isinstance(other, (type(self), tuple)):\n            return NotImplemented\n        return op(self, other)\n    return wrapper\n"},
	{"int into (int, float)", "type-tuple",
		"def number(x):\n    return isinstance(x, int)\n",
		"def number(x):\n    return isinstance(x, (int, float))\n"},
	{"a class of the file added", "type-tuple",
		"class Version:\n    pass\n\ndef coerce(v):\n    if isinstance(v, str):\n        return v\n    return str(v)\n",
		"class Version:\n    pass\n\ndef coerce(v):\n    if isinstance(v, (str, Version)):\n        return v\n    return str(v)\n"},

	{"end anchor before a newline into the end of the text", "regex",
		"import re\n\ndef full(expression, s):\n    return re.match(r'^%s$' % expression, s)\n",
		"import re\n\ndef full(expression, s):\n    return re.match(r'^%s\\Z' % expression, s)\n"},
	{"a fill repeated at least once into any number of times", "regex",
		"import re\n\ndef aligned(s, fill):\n    return '%s%s+' % (s, fill)\n",
		"import re\n\ndef aligned(s, fill):\n    return '%s%s*' % (s, fill)\n"},

	// A handler that reports an error and falls through.
	{"return after the callback", "stop-after",
		"def strictly_n(it, n, too_short):\n    for i in range(n):\n        try:\n            item = next(it)\n        except StopIteration:\n            too_short()\n        else:\n            yield item\n",
		"def strictly_n(it, n, too_short):\n    for i in range(n):\n        try:\n            item = next(it)\n        except StopIteration:\n            too_short()\n            return\n        else:\n            yield item\n"},
	{"continue after the warning", "stop-after",
		"import logging\n\ndef parse_all(lines):\n    out = []\n    for line in lines:\n        try:\n            n = int(line)\n        except ValueError:\n            logging.warning(\"bad line %r\", line)\n        out.append(n)\n    return out\n",
		"import logging\n\ndef parse_all(lines):\n    out = []\n    for line in lines:\n        try:\n            n = int(line)\n        except ValueError:\n            logging.warning(\"bad line %r\", line)\n            continue\n        out.append(n)\n    return out\n"},

	// A __getattr__ that makes attributes up for special names too.
	{"copy asks for __reduce_ex__", "getattr-dunder",
		"class TokenType(tuple):\n    def __getattr__(self, name):\n        new = TokenType(self + (name,))\n        setattr(self, name, new)\n        return new\n",
		"class TokenType(tuple):\n    def __getattr__(self, name):\n        if name.startswith(\"__\"): raise AttributeError(name)\n        new = TokenType(self + (name,))\n        setattr(self, name, new)\n        return new\n"},
	{"a module's __getattr__", "getattr-dunder",
		"def __getattr__(attr):\n    \"\"\"Lazy submodules.\"\"\"\n    return load(attr)\n",
		"def __getattr__(attr):\n    \"\"\"Lazy submodules.\"\"\"\n    if attr.startswith(\"__\"): raise AttributeError(attr)\n    return load(attr)\n"},

	// A generator's last chunk yielded even when it is empty.
	{"the rest of a split", "yield-nonempty",
		"def split_after(iterable, pred, maxsplit=-1):\n    buf = []\n    it = iter(iterable)\n    for item in it:\n        buf.append(item)\n        if pred(item) and buf:\n            yield buf\n            if maxsplit == 1:\n                yield list(it)\n                return\n            buf = []\n            maxsplit -= 1\n    if buf:\n        yield buf\n",
		"def split_after(iterable, pred, maxsplit=-1):\n    buf = []\n    it = iter(iterable)\n    for item in it:\n        buf.append(item)\n        if pred(item) and buf:\n            yield buf\n            if maxsplit == 1:\n                buf = list(it)\n                if buf:\n                    yield buf\n                return\n            buf = []\n            maxsplit -= 1\n    if buf:\n        yield buf\n"},

	// A value computed into a local and computed again where it was meant.
	{"the parser built with the option", "use-local",
		"def findall(format, string, extra_types=None, case_sensitive=False):\n    p = Parser(format, extra_types=extra_types, case_sensitive=case_sensitive)\n    return Parser(format, extra_types=extra_types).findall(string)\n",
		"def findall(format, string, extra_types=None, case_sensitive=False):\n    p = Parser(format, extra_types=extra_types, case_sensitive=case_sensitive)\n    return p.findall(string)\n"},
	{"the cleaned value as an argument", "use-local",
		"def save(db, key, value):\n    if key:\n        clean = normalise(value, strict=True)\n        db.put(key, normalise(value))\n",
		"def save(db, key, value):\n    if key:\n        clean = normalise(value, strict=True)\n        db.put(key, clean)\n"},
}

// TestDeveloperFixes: each fix of devFixes is among the edits its
// operator proposes at some target of the buggy program.
func TestDeveloperFixes(t *testing.T) {
	for _, tt := range devFixes {
		t.Run(tt.op+": "+tt.name, func(t *testing.T) {
			p, err := program.Parse("bug.py", []byte(tt.src))
			if err != nil {
				t.Fatal(err)
			}
			if _, err := program.Parse("fix.py", []byte(tt.want)); err != nil {
				t.Fatalf("the fix does not parse: %v", err)
			}
			op, ok := ByName(tt.op)
			if !ok {
				t.Fatalf("no operator %q", tt.op)
			}
			c := NewContext(p, nil)
			n := 0
			found := false
			for _, id := range op.Targets(c).ids {
				op.Edits(c, id, func(e program.Edit) {
					n++
					found = found || string(p.Render(program.Patch{e})) == tt.want
				})
			}
			if !found {
				t.Errorf("%s proposed %d edits, not the fix:\n%s", tt.op, n, tt.want)
			}
		})
	}
}

// TestDevFixesCompile: every edit the operators of developers' edits
// propose on the programs of devFixes compiles.
func TestDevFixesCompile(t *testing.T) {
	var srcs, names []string
	for _, tt := range devFixes {
		p, err := program.Parse("bug.py", []byte(tt.src))
		if err != nil {
			t.Fatal(err)
		}
		c := NewContext(p, nil)
		for _, o := range All {
			for _, id := range o.Targets(c).ids {
				o.Edits(c, id, func(e program.Edit) {
					srcs = append(srcs, string(p.Render(program.Patch{e})))
					names = append(names, tt.name+": "+o.Name+": "+p.Describe(e))
				})
			}
		}
	}
	for i, msg := range compileAll(t, srcs) {
		if msg != "" {
			t.Errorf("%s: does not compile: %s\n%s", names[i], msg, srcs[i])
		}
	}
}

// TestNoDeadInserts: no insert lands where it never runs — after a
// statement that always leaves its block, or after one such.
func TestNoDeadInserts(t *testing.T) {
	src := `def f(x):
    if x:
        return 1
    else:
        raise ValueError(x)
    y = 2


def g(ys, x):
    for v in ys:
        if v:
            continue
        x += v
    try:
        return x
    except KeyError:
        return 0
    z = 3


def h(x):
    with open(x) as fh:
        return fh.read()
    w = 4


def k(x):
    if x:
        x = 1
    elif x is None:
        return 2
    return x
`
	p, err := program.Parse("t.py", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	// Nothing before or after the statements of lines deadAt, nothing
	// after those of noAfter; k's if (line 28) may fall through.
	deadAt := map[int]bool{6: true, 18: true, 24: true}
	noAfter := map[int]bool{2: true, 3: true, 5: true, 12: true, 14: true, 15: true, 17: true, 22: true, 23: true, 31: true, 32: true}
	c := NewContext(p, nil)
	afterIf := false
	for _, name := range []string{"insert", "insert-renamed", "insert-changed", "assign", "guard", "early-exit"} {
		op, _ := ByName(name)
		for _, s := range op.Targets(c).ids {
			op.Edits(c, s, func(e program.Edit) {
				l := p.Stmts[e.Stmt].Line
				afterIf = afterIf || e.Op == program.InsertAfter && l == 28
				if deadAt[l] || e.Op == program.InsertAfter && noAfter[l] {
					t.Errorf("%s: %s", name, p.Describe(e))
				}
			})
		}
	}
	if !afterIf {
		t.Errorf("nothing inserted after k's if, which may fall through")
	}
}

// TestCallAlone: raise-call takes a statement that is one call and
// nothing else; brackets inside strings do not count.
func TestCallAlone(t *testing.T) {
	for text, want := range map[string]bool{
		`self.parse_error(UnexpectedCharError, c)`: true,
		`Error("a)b")`: true,
		`Error('(')`:   true,
		`f(a)(b)`:      false,
		`f(a) + g(b)`:  false,
		`f(x`:          false,
		`f`:            false,
	} {
		if got := callAlone(text); got != want {
			t.Errorf("callAlone(%s) = %v, want %v", text, got, want)
		}
	}
}

// TestAttrAlike: attr-alike's names are the same words but one, or
// similar names; a name is not alike itself, and words must line up.
func TestAttrAlike(t *testing.T) {
	for _, tt := range []struct {
		a, b string
		want bool
	}{
		{"next_patch", "next_minor", true},
		{"nextPatch", "nextMinor", true},
		{"is_leaf", "is_root", true},
		{"value", "_value", true},
		{"next_patch", "next_patch", false},
		{"next_patch", "prev_minor", false},
		{"left", "right", false},
		{"get_all_items", "get_items", false},
	} {
		if got := attrAlike(tt.a, tt.b); got != tt.want {
			t.Errorf("attrAlike(%q, %q) = %v, want %v", tt.a, tt.b, got, tt.want)
		}
	}
}

// TestInitUnbound: where a failing case read a local name before
// assignment, init-unbound proposes the developer's initialisation as
// the function's first statement (after its docstring), and the sweep
// tries it first; without an UnboundLocalError, or for a name that is
// not the function's local, it proposes nothing.
func TestInitUnbound(t *testing.T) {
	for _, tt := range []struct {
		name, src string
		line      int    // where the name was read unbound (0: no failing case did)
		unbound   string // the name
		want      string // a fixed program among the edits ("": no edit)
	}{
		{"table name", "def peek(p):\n    \"\"\"The table's name.\"\"\"\n    with p.state():\n        while p.more():\n            name = p.extract()\n        return name\n", 6, "name",
			"def peek(p):\n    \"\"\"The table's name.\"\"\"\n    name = \"\"\n    with p.state():\n        while p.more():\n            name = p.extract()\n        return name\n"},
		{"a count", "def count(xs):\n    for i, x in enumerate(xs):\n        n = i + 1\n    return n\n", 4, "n",
			"def count(xs):\n    n = 0\n    for i, x in enumerate(xs):\n        n = i + 1\n    return n\n"},
		{"in a method", "class K:\n    def last(self):\n        if self.items:\n            out = self.items[-1]\n        return out\n", 5, "out",
			"class K:\n    def last(self):\n        out = None\n        if self.items:\n            out = self.items[-1]\n        return out\n"},
		{"no failing read", "def count(xs):\n    for i, x in enumerate(xs):\n        n = i + 1\n    return n\n", 0, "", ""},
		{"a global", "def bump():\n    global n\n    return n\n", 3, "n", ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			p, err := program.Parse("bug.py", []byte(tt.src))
			if err != nil {
				t.Fatal(err)
			}
			c := NewContext(p, nil)
			if tt.line > 0 {
				s := -1
				for i, st := range p.Stmts {
					if st.Line == tt.line && !st.Compound {
						s = i
					}
				}
				c.SetUnbound([]int{s}, []string{tt.unbound})
			}
			op, _ := ByName("init-unbound")
			var got []string
			first := true
			for _, s := range op.Targets(c).ids {
				op.Edits(c, s, func(e program.Edit) {
					got = append(got, string(p.Render(program.Patch{e})))
					if first && !c.crashGuard(e) {
						t.Errorf("the sweep does not try %s first", p.Describe(e))
					}
					first = false
				})
			}
			if tt.want == "" {
				if len(got) > 0 {
					t.Errorf("proposed %d edits, want none:\n%s", len(got), got[0])
				}
				return
			}
			if !slices.Contains(got, tt.want) {
				t.Errorf("no edit makes\n%s\nin %d edits: %q", tt.want, len(got), got)
			}
		})
	}
}
