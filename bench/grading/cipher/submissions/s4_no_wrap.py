def caesar(text, shift):
    out = ""
    for ch in text:
        if ch.islower():
            out += "abcdefghijklmnopqrstuvwxyz"[ord(ch) - 97 + shift]
        elif ch.isupper():
            out += "ABCDEFGHIJKLMNOPQRSTUVWXYZ"[(ord(ch) - 65 + shift) % 26]
        else:
            out += ch
    return out


def xor_bytes(data, key):
    if not key:
        raise ValueError("empty key")
    return bytes(b ^ key[i % len(key)] for i, b in enumerate(data))


def crack(ciphertext, word):
    return tuple(s for s in range(26) if word in caesar(ciphertext, -s))
