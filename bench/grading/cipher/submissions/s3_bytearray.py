def caesar(text, shift):
    out = []
    for ch in text:
        if "a" <= ch <= "z":
            out.append(chr((ord(ch) - ord("a") + shift) % 26 + ord("a")))
        elif "A" <= ch <= "Z":
            out.append(chr((ord(ch) - ord("A") + shift) % 26 + ord("A")))
        else:
            out.append(ch)
    return "".join(out)


def xor_bytes(data, key):
    return bytearray(b ^ key[i % len(key)] for i, b in enumerate(data))


def crack(ciphertext, word):
    return [s for s in range(26) if word in caesar(ciphertext, -s)]
