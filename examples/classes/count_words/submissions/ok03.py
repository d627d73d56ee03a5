def count_words(text):
    result = {}
    words = text.lower().split()
    for word in words:
        result[word] = result.get(word, 0) + 1
    return result
