def count_words(sentence):
    dd = {}
    for tok in sentence.split():
        tok = tok.lower()
        dd[tok] = dd.get(tok, 0) + 1
    return dd
