def f(s):
    return [",".join(s.split()), s.lower(), s.upper(), s.isdigit(), s.isalpha(), s.isalnum(), s.isspace(),
            s.isupper(), s.islower(), s.count("a"), s.count("a", 1, -1), s.count(""), s.rfind("a"), s.find("a")]
def g(s, sub):
    return [s.index(sub), s.rindex(sub), s.index(sub, 1)]
def j(xs):
    return "-".join(xs)
