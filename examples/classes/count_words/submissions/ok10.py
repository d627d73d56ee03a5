def count_words(sentence):
    tally = {}
    for token in sentence.lower().split():
        tally.setdefault(token, 0)
        tally[token] += 1
    return tally
