def count_words(text):
    counts = {}
    for w in text.lower().split():
        if w in counts:
            counts[w] += 1
        else:
            counts[w] = 0
    return counts
