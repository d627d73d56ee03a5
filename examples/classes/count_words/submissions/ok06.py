def count_words(sentence):
    """How often each word of text occurs, case ignored."""
    tally = {}
    for token in sentence.lower().split():
        tally[token] = tally.get(token, 0) + 1
    return tally
