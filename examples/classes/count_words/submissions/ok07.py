def count_words(sentence):
    tally = {}
    for tok in sentence.lower().split():
        if tok in tally:
            tally[tok] += 1
        else:
            tally[tok] = 1
    return tally
