def count_words(sentence):
    acc = {}
    toks = sentence.lower().split()
    for token in toks:
        acc[token] = acc.get(token, 0) + 1
    return acc
