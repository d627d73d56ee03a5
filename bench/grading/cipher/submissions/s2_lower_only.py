def caesar(text, shift):
    out = ""
    for ch in text:
        if ch.isalpha():
            out += chr((ord(ch.lower()) - 97 + shift) % 26 + 97)
        else:
            out += ch
    return out


def xor_bytes(data, key):
    if not key:
        raise ValueError("empty key")
    return bytes(b ^ key[i % len(key)] for i, b in enumerate(data))


def crack(ciphertext, word):
    return tuple(s for s in range(26) if word in caesar(ciphertext, -s))
