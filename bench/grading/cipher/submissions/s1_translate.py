import string

LOW, UP = string.ascii_lowercase, string.ascii_uppercase


def caesar(text, shift):
    k = shift % 26
    table = str.maketrans(LOW + UP, LOW[k:] + LOW[:k] + UP[k:] + UP[:k])
    return text.translate(table)


def xor_bytes(data, key):
    if len(key) == 0:
        raise ValueError("key")
    out = bytearray(data)
    for i in range(len(out)):
        out[i] ^= key[i % len(key)]
    return bytes(out)


def crack(ciphertext, word):
    found = []
    for s in range(26):
        if word in caesar(ciphertext, 26 - s):
            found.append(s)
    return tuple(found)
